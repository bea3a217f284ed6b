/**
 * `npm start -- --meta-stand-in` (docs/meta.md "Trying it"): the Graph stand-in on a local port with one
 * fake WhatsApp Cloud number, one fake Facebook page (with an Instagram account) and two templates, plus a
 * small page where a newcomer plays the customer: what they type is delivered to Balcão as Meta's signed
 * webhook, and what the agents answer shows there. The demo can't reach Meta itself.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphStandIn } from '../testing/graph-stand-in';

export interface MetaStandInDemo {
  /** The variables that point the server at the stand-in (META_*). */
  env: Record<string, string>;
  /** The customer's page. */
  url: string;
  /** What to type in the connection editor / send to POST /facebook. */
  whatsapp: { phoneNumberId: string; businessAccountId: string; token: string };
  facebookUserToken: string;
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);

/** Starts the stand-in; `appUrl` is where Balcão will listen (its webhooks are under `${appUrl}${apiPrefix}`). */
export async function startMetaStandInDemo(options: {
  appUrl: string;
  apiPrefix: string;
  port?: number;
}): Promise<MetaStandInDemo> {
  const graph = new GraphStandIn();
  await graph.start(options.port ?? 0);
  const phone = graph.addPhoneNumber({ displayPhoneNumber: '+55 11 4000-0001', verifiedName: 'Acme (stand-in)' });
  graph.templates.set(phone.businessAccountId, [
    {
      name: 'retomar_conversa',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      body: 'Olá {{1}}, podemos continuar seu atendimento?',
    },
    {
      name: 'pedido_pronto',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      body: 'Seu pedido {{1}} está pronto para retirada.',
    },
  ]);
  const facebookUserToken = 'stand-in-facebook-user-token';
  const page = graph.addPage(facebookUserToken, { name: 'Acme Page (stand-in)', instagramUsername: 'acme.standin' });
  const customer = { whatsapp: '5511988887777', psid: graph.nextId('7'), igsid: graph.nextId('8') };
  graph.profiles.set(customer.psid, { first_name: 'Cliente', last_name: 'Messenger' });
  graph.profiles.set(customer.igsid, { name: 'Cliente Instagram', username: 'cliente.ig' });
  const webhook = (platform: string) => `${options.appUrl}${options.apiPrefix}/meta/webhooks/${platform}`;
  let sequence = 0;

  function delivery(channel: string, text: string): { platform: string; payload: unknown } {
    sequence += 1;
    const id = `demo${Date.now()}${sequence}`;
    if (channel === 'whatsapp')
      return {
        platform: 'whatsapp',
        payload: {
          object: 'whatsapp_business_account',
          entry: [
            {
              id: phone.businessAccountId,
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: { display_phone_number: phone.displayPhoneNumber, phone_number_id: phone.id },
                    contacts: [{ wa_id: customer.whatsapp, profile: { name: 'Cliente WhatsApp' } }],
                    messages: [
                      {
                        from: customer.whatsapp,
                        id: `wamid.${id}`,
                        timestamp: String(Math.floor(Date.now() / 1000)),
                        type: 'text',
                        text: { body: text },
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      };
    const instagram = channel === 'instagram';
    const ownId = instagram ? (page.instagram?.id as string) : page.id;
    return {
      platform: channel,
      payload: {
        object: instagram ? 'instagram' : 'page',
        entry: [
          {
            id: ownId,
            time: Date.now(),
            messaging: [
              {
                sender: { id: instagram ? customer.igsid : customer.psid },
                recipient: { id: ownId },
                timestamp: Date.now(),
                message: { mid: `m_${id}`, text },
              },
            ],
          },
        ],
      },
    };
  }

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://demo');
    if (request.method === 'POST' && url.pathname === '/say') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const channel = ['whatsapp', 'facebook', 'instagram'].includes(form.get('channel') ?? '')
        ? (form.get('channel') as string)
        : 'whatsapp';
      const text = (form.get('text') ?? '').slice(0, 1000);
      let note = '';
      if (text.trim()) {
        const { platform, payload } = delivery(channel, text);
        const answer = await graph
          .deliver(webhook(platform), payload)
          .catch((error: Error) => ({ status: 0, body: error.message }));
        note = answer.status === 200 ? '' : `?note=${encodeURIComponent(`${answer.status} ${answer.body}`)}`;
      }
      response.writeHead(303, { location: `/${note}` });
      response.end();
      return;
    }
    const sent = graph.sent
      .slice(-30)
      .map((item) => {
        const body = item.body as { text?: { body?: string }; message?: { text?: string }; template?: { name?: string } };
        const text = body.text?.body ?? body.message?.text ?? (body.template ? `[template ${body.template.name}]` : '[file]');
        return `<li><b>${escapeHtml(item.from === phone.id ? 'WhatsApp' : 'Page')}</b> → ${escapeHtml(item.to)}: ${escapeHtml(text)}</li>`;
      })
      .join('');
    const note = url.searchParams.get('note');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="4"><title>Meta stand-in</title>
<body style="font-family:sans-serif;max-width:720px;margin:2em auto">
<h1>Meta stand-in: play the customer</h1>
${note ? `<p style="color:#b00">Balcão answered ${escapeHtml(note)}</p>` : ''}
<form method="post" action="/say"><select name="channel"><option value="whatsapp">WhatsApp Cloud</option><option value="facebook">Messenger</option><option value="instagram">Instagram</option></select>
<input name="text" size="50" placeholder="Write as the customer" autofocus> <button>Send</button></form>
<h2>What the agents sent</h2><ul>${sent || '<li>nothing yet</li>'}</ul></body>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    env: {
      META_GRAPH_URL: graph.url,
      META_APP_ID: graph.app.id,
      META_APP_SECRET: graph.app.secret,
      META_VERIFY_TOKEN: graph.app.verifyToken,
      // Connections → add → Facebook logs in through the stand-in's SDK, as the fake page's admin
      META_LOGIN_SDK_URL: `${graph.url}/sdk.js`,
    },
    url,
    whatsapp: { phoneNumberId: phone.id, businessAccountId: phone.businessAccountId, token: phone.token },
    facebookUserToken,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await graph.close();
    },
  };
}
