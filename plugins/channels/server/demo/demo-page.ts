import { createServer, type Server } from 'node:http';
import { DEMO_WIDGET_KEY, WEBCHAT_DEMO_PORT } from './constants';

/**
 * The webchat demo: a plain page of a made-up shop that embeds Acme's chat widget with one script tag,
 * served on its own port so that the widget really runs cross-origin (`npm start` serves it; the browser
 * tests too). `/` is the floating launcher; `/inline` shows the inline mode and the JS API.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${escapeHtml(title)}</title>
  <style>
    body { margin: 0; font-family: Georgia, serif; background: #faf7f2; color: #2b2b2b; }
    header { padding: 16px 24px; background: #2b2b2b; color: #faf7f2; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
    header h1 { font-size: 20px; margin: 0; flex: 1; }
    header a { color: #f3c89b; }
    main { padding: 16px 24px; max-width: 960px; }
    .products { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 16px; }
    .product { background: #fff; border: 1px solid #e5ddd0; border-radius: 8px; padding: 12px; }
    .product .price { color: #b5651d; font-weight: bold; }
    #chat-here { height: 520px; border: 1px solid #ddd; border-radius: 8px; overflow: hidden; background: #fff; }
    .api button { margin: 0 8px 8px 0; }
    #events { font: 12px/1.5 ui-monospace, monospace; background: #fff; border: 1px solid #ddd; padding: 8px; height: 160px; overflow: auto; }
  </style>
</head>
<body>
${body}
</body>
</html>`;
}

function widgetTag(appUrl: string, widgetKey: string, extra = ''): string {
  return `<script async src="${escapeHtml(appUrl)}/plugins/channels/widget/channels-widget.js" data-key="${escapeHtml(widgetKey)}"${extra}></script>`;
}

/** The shop page: the floating launcher of the widget, nothing else of Balcão on it. */
export function shopPageHtml(options: { appUrl: string; widgetKey: string }): string {
  const app = options.appUrl.replace(/\/$/, '');
  const products = [
    ['Caneca esmaltada', 'R$ 49,90'],
    ['Bule de cerâmica', 'R$ 129,00'],
    ['Jogo de xícaras', 'R$ 89,50'],
    ['Cesto de palha', 'R$ 64,00'],
  ]
    .map(([name, price]) => `<div class="product"><h3>${name}</h3><p class="price">${price}</p><button>Comprar</button></div>`)
    .join('\n      ');
  return page(
    'Empório Exemplo — loja',
    `  <header>
    <h1>Empório Exemplo</h1>
    <a href="/inline">Modo embutido e API JS →</a>
  </header>
  <main>
    <p>Uma loja comum em outra origem. O botão de conversa no canto vem do Balcão em <code>${escapeHtml(app)}</code>
      por uma única tag &lt;script&gt;: escreva, escolha um setor e responda pela caixa de entrada do Balcão
      (admin@acme.test / demo1234).</p>
    <div class="products">
      ${products}
    </div>
  </main>
  ${widgetTag(app, options.widgetKey)}`,
  );
}

/** The inline page: the widget inside an element, and buttons calling the JS API, with an event log. */
export function inlinePageHtml(options: { appUrl: string; widgetKey: string }): string {
  const app = options.appUrl.replace(/\/$/, '');
  return page(
    'Empório Exemplo — atendimento',
    `  <header>
    <h1>Empório Exemplo · atendimento</h1>
    <a href="/">← Loja</a>
  </header>
  <main>
    <p>O mesmo widget, embutido num elemento da página (<code>data-mode="inline" data-target="#chat-here"</code>),
      e a API <code>window.BalcaoChat</code>.</p>
    <div class="api">
      <button data-call="open">open()</button>
      <button data-call="close">close()</button>
      <button data-call="toggle">toggle()</button>
      <button data-locale="pt">setLocale('pt')</button>
      <button data-locale="en">setLocale('en')</button>
      <button data-locale="es">setLocale('es')</button>
      <button data-locale="tr">setLocale('tr')</button>
    </div>
    <div id="chat-here"></div>
    <h2>Eventos</h2>
    <div id="events" data-testid="events"></div>
  </main>
  <script>
    // calls before the widget loaded are queued by the stub (the widget replays them)
    window.BalcaoChat = window.BalcaoChat || [];
    const log = (name, detail) => {
      const line = document.createElement('div');
      line.textContent = new Date().toLocaleTimeString() + '  ' + name + '  ' + JSON.stringify(detail === undefined ? null : detail);
      document.getElementById('events').prepend(line);
    };
    const call = (method, ...args) => {
      const chat = window.BalcaoChat;
      if (chat && typeof chat[method] === 'function') chat[method](...args);
      else if (Array.isArray(chat)) chat.push([method, ...args]);
      log('call ' + method, args);
    };
    for (const name of ['ready', 'open', 'close', 'message']) call('on', name, (detail) => log(name, detail));
    for (const button of document.querySelectorAll('[data-call]')) button.addEventListener('click', () => call(button.dataset.call));
    for (const button of document.querySelectorAll('[data-locale]')) button.addEventListener('click', () => call('setLocale', button.dataset.locale));
  </script>
  ${widgetTag(app, options.widgetKey, ' data-mode="inline" data-target="#chat-here"')}`,
  );
}

/** Serves the demo pages on `port` (0: any free port); resolves with the address. */
export async function startWebchatDemoPage(options: {
  appUrl: string;
  port?: number;
  host?: string;
  widgetKey?: string;
}): Promise<{ url: string; server: Server }> {
  const pages: Record<string, string> = {
    '/': shopPageHtml({ appUrl: options.appUrl, widgetKey: options.widgetKey ?? DEMO_WIDGET_KEY }),
    '/inline': inlinePageHtml({ appUrl: options.appUrl, widgetKey: options.widgetKey ?? DEMO_WIDGET_KEY }),
  };
  const server = createServer((request, response) => {
    const html = request.method === 'GET' ? pages[(request.url ?? '/').split('?')[0] ?? '/'] : undefined;
    if (!html) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }).end(html);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? WEBCHAT_DEMO_PORT, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? WEBCHAT_DEMO_PORT);
  return { url: `http://${host}:${port}`, server };
}
