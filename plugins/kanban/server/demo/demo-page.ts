import { createServer, type Server } from 'node:http';
import { DEMO_EMBED_KEY, DEMO_PAGE_PORT } from './constants';

/**
 * A plain HTML page of a made-up shop that embeds Acme's kanban with one script tag, served on its own
 * port so that the widget really runs cross-origin (`npm start` serves it; the browser tests too).
 */
export function demoPageHtml(options: { appUrl: string; embedKey: string }): string {
  const app = options.appUrl.replace(/\/$/, '');
  return `<!doctype html>
<html lang="pt-BR">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Loja Exemplo — funil de vendas</title>
  <style>
    body { margin: 0; font-family: Georgia, serif; background: #faf7f2; color: #2b2b2b; }
    header { padding: 16px 24px; background: #2b2b2b; color: #faf7f2; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
    header h1 { font-size: 20px; margin: 0; flex: 1; }
    main { padding: 16px 24px; }
    #balcao-kanban { height: 560px; border: 1px solid #ddd; border-radius: 8px; overflow: hidden;
      /* the shop's colours, through the widget's CSS variables */
      --bk-accent: #b5651d; --bk-radius: 10px; }
    #events { font: 12px/1.5 ui-monospace, monospace; background: #fff; border: 1px solid #ddd; padding: 8px; height: 120px; overflow: auto; }
  </style>
</head>
<body>
  <header>
    <h1>Loja Exemplo · funil de vendas (Balcão)</h1>
    <label>Idioma <select id="lang"><option value="pt">Português</option><option value="en">English</option><option value="es">Español</option><option value="tr">Türkçe</option></select></label>
    <label>Tema <select id="theme"><option value="light">Claro</option><option value="dark">Escuro</option></select></label>
  </header>
  <main>
    <p>Este é um site comum em outra origem: o quadro abaixo vem do Balcão em <code>${app}</code> por uma tag &lt;script&gt;.</p>
    <div id="balcao-kanban"></div>
    <h2>Eventos</h2>
    <div id="events" data-testid="events"></div>
  </main>
  <script async src="${app}/plugins/kanban/widget/kanban-widget.js"
    data-key="${options.embedKey}" data-target="#balcao-kanban" data-lang="pt" data-theme="light"></script>
  <script>
    const log = (name, detail) => {
      const line = document.createElement('div');
      line.textContent = new Date().toLocaleTimeString() + '  ' + name + '  ' + JSON.stringify(detail);
      document.getElementById('events').prepend(line);
    };
    const target = document.getElementById('balcao-kanban');
    for (const name of ['ready', 'card-moved', 'card-opened', 'error']) {
      target.addEventListener('balcao-kanban:' + name, (event) => log(name, event.detail));
    }
    const remount = () => {
      target.balcaoKanban?.destroy();
      target.balcaoKanban = window.BalcaoKanban.mount({
        key: ${JSON.stringify(options.embedKey)}, target, api: ${JSON.stringify(`${app}/api`)},
        lang: document.getElementById('lang').value, theme: document.getElementById('theme').value,
      });
    };
    document.getElementById('lang').addEventListener('change', remount);
    document.getElementById('theme').addEventListener('change', remount);
  </script>
</body>
</html>`;
}

/** Serves the demo page on `port` (0: any free port); resolves with its address. */
export async function startKanbanDemoPage(options: {
  appUrl: string;
  port?: number;
  host?: string;
  embedKey?: string;
}): Promise<{ url: string; server: Server }> {
  const html = demoPageHtml({ appUrl: options.appUrl, embedKey: options.embedKey ?? DEMO_EMBED_KEY });
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '/').split('?')[0] !== '/') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }).end(html);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEMO_PAGE_PORT, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEMO_PAGE_PORT);
  return { url: `http://${host}:${port}`, server };
}
