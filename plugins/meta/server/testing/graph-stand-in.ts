/**
 * A local stand-in of the Meta Graph API: the HTTP shapes our Graph client uses (token exchange, the user's
 * pages with their linked Instagram accounts, page webhook subscriptions, the Messenger / Instagram and
 * WhatsApp Cloud send endpoints with their success and error bodies, media upload and download,
 * message templates, profiles) and the webhook deliveries Meta makes, signed with the app secret. Tests,
 * `npm run bench -- meta` and `npm start -- --meta-stand-in` run our real driver code against it.
 *
 * It keeps its state in memory and records every request, so that a test can look at what was sent.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The default app of the stand-in (what `META_APP_ID` / `META_APP_SECRET` name in tests and the demo). */
export const STAND_IN_APP = { id: '100200300', secret: 'stand-in-app-secret', verifyToken: 'stand-in-verify-token' };

export interface StandInPhoneNumber {
  id: string;
  businessAccountId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /** The system-user token that may use it. */
  token: string;
}

export interface StandInPage {
  id: string;
  name: string;
  /** Its long-lived page token (what the page list answers to its admin). */
  token: string;
  /** The Instagram professional account linked to it, if any. */
  instagram?: { id: string; username: string };
}

export interface StandInTemplate {
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED';
  category: string;
  /** The body text with its `{{1}}` … variables. */
  body: string;
}

/** A Graph error as Meta answers it. */
export interface StandInError {
  status: number;
  code: number;
  message: string;
  subcode?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  token: string | null;
}

/** What a profile lookup answers for a person (page-scoped id or IG-scoped id). */
export interface StandInProfile {
  first_name?: string;
  last_name?: string;
  name?: string;
  username?: string;
  profile_pic?: string;
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
};

const graphError = (response: ServerResponse, error: StandInError) =>
  json(response, error.status, {
    error: {
      message: error.message,
      type: error.code === 190 ? 'OAuthException' : 'GraphMethodException',
      code: error.code,
      ...(error.subcode ? { error_subcode: error.subcode } : {}),
      fbtrace_id: randomBytes(6).toString('hex'),
    },
  });

const INVALID_TOKEN: StandInError = { status: 401, code: 190, message: 'Invalid OAuth access token - Cannot parse access token' };

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** The parts of a multipart/form-data body (media upload): field name → text or file. */
function multipartParts(body: Buffer, contentType: string): Map<string, { data: Buffer; fileName?: string; type?: string }> {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  const parts = new Map<string, { data: Buffer; fileName?: string; type?: string }>();
  if (!boundary) return parts;
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const name = /name="([^"]+)"/.exec(headers)?.[1];
    if (name)
      parts.set(name, {
        data: part.subarray(headerEnd + 4),
        fileName: /filename="([^"]*)"/.exec(headers)?.[1],
        type: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1],
      });
    start = next;
  }
  return parts;
}

/** A Send API body given as JSON or as a multipart form (an attachment upload: each field JSON text). */
function formOrJson(body: unknown): Record<string, unknown> | null {
  if (!(body instanceof Map)) return body as Record<string, unknown> | null;
  const fields: Record<string, unknown> = {};
  for (const [name, part] of body as ReturnType<typeof multipartParts>) {
    if (part.fileName !== undefined) {
      fields[name] = { fileName: part.fileName, type: part.type, bytes: part.data.length };
      continue;
    }
    const value = part.data.toString('utf8');
    try {
      fields[name] = JSON.parse(value);
    } catch {
      fields[name] = value;
    }
  }
  return fields;
}

/** The signature Meta puts in `X-Hub-Signature-256` for a body. */
export function hubSignature(appSecret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

export class GraphStandIn {
  readonly app = { ...STAND_IN_APP };
  readonly phoneNumbers = new Map<string, StandInPhoneNumber>();
  readonly pages = new Map<string, StandInPage>();
  /** Short-lived user tokens (from the Facebook SDK in a browser) → the pages whose admin holds it. */
  readonly userTokens = new Map<string, string[]>();
  /** Templates per WhatsApp business account. */
  readonly templates = new Map<string, StandInTemplate[]>();
  readonly profiles = new Map<string, StandInProfile>();
  readonly media = new Map<string, { data: Buffer; mimeType: string }>();
  readonly subscribedPages = new Set<string>();
  /** WhatsApp business accounts this app is subscribed to. */
  readonly subscribedAccounts = new Set<string>();
  readonly requests: RecordedRequest[] = [];
  /** Messages the send endpoints accepted, in order (WhatsApp Cloud and Messenger / Instagram alike). */
  readonly sent: Array<{ from: string; to: string; body: Record<string, unknown>; id: string }> = [];
  /** Errors the next send calls answer, first one first (one error per call). */
  readonly sendFailures: StandInError[] = [];
  /** Called with each accepted send (a test waits on it). */
  onSend: ((sent: { from: string; to: string; body: Record<string, unknown>; id: string }) => void) | null = null;
  /**
   * Who the stand-in's Facebook SDK (`/sdk.js`) logs in: `FB.login` answers this user's id and short-lived
   * token at once (no popup). Null: the most recent user token `addPage` named.
   */
  browserLogin: { userId: string; token: string } | null = null;
  /**
   * Awaited after a send is accepted and before it is answered (a test delivers the message's first status
   * meanwhile: Meta's webhook racing the send's answer).
   */
  beforeAnswer: ((sent: { from: string; to: string; body: Record<string, unknown>; id: string }) => Promise<void>) | null = null;
  /** Awaited before answering each request (a test holds the Graph mid-call with it). */
  gate: ((method: string, path: string) => Promise<void>) | null = null;
  private lastUserToken: string | null = null;
  private server: Server | null = null;
  private sequence = 0;
  url = '';

  /** Starts listening on a loopback port; answers the base URL (`http://127.0.0.1:<port>`). */
  async start(port = 0): Promise<string> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        json(response, 500, { error: { message: String(error), code: 1 } });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A fresh Graph id: digits, as Meta's object ids are (after `prefix`). */
  nextId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}${Date.now()}${String(this.sequence).padStart(4, '0')}`;
  }

  /** A WhatsApp Cloud number with its business account and system-user token. */
  addPhoneNumber(fields: Partial<StandInPhoneNumber> = {}): StandInPhoneNumber {
    const phone: StandInPhoneNumber = {
      id: fields.id ?? this.nextId('1'),
      businessAccountId: fields.businessAccountId ?? this.nextId('2'),
      displayPhoneNumber: fields.displayPhoneNumber ?? '+55 11 4000-0000',
      verifiedName: fields.verifiedName ?? 'Stand-in Business',
      token: fields.token ?? `EAAG${randomBytes(12).toString('hex')}`,
    };
    this.phoneNumbers.set(phone.id, phone);
    return phone;
  }

  /** A Facebook page (with an Instagram account when `instagram` is given) whose admin holds `userToken`. */
  addPage(userToken: string, fields: Partial<StandInPage> & { instagramUsername?: string } = {}): StandInPage {
    const page: StandInPage = {
      id: fields.id ?? this.nextId('3'),
      name: fields.name ?? 'Stand-in Page',
      token: fields.token ?? `EAAP${randomBytes(12).toString('hex')}`,
      ...(fields.instagramUsername ? { instagram: { id: this.nextId('17'), username: fields.instagramUsername } } : {}),
    };
    this.pages.set(page.id, page);
    this.userTokens.set(userToken, [...(this.userTokens.get(userToken) ?? []), page.id]);
    this.lastUserToken = userToken;
    return page;
  }

  /** A file the Graph serves as a received message's media; answers its media id. */
  addMedia(data: Buffer, mimeType: string): string {
    const id = this.nextId('9');
    this.media.set(id, { data, mimeType });
    return id;
  }

  /**
   * Delivers a webhook to our server as Meta does: the JSON body signed with the app secret (or with
   * `secret` to test a forged one). Answers the status and the time to answer.
   */
  async deliver(url: string, payload: unknown, secret = this.app.secret): Promise<{ status: number; body: string; ms: number }> {
    const body = JSON.stringify(payload);
    const started = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(secret, body) },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text, ms: performance.now() - started };
  }

  private tokenOf(request: IncomingMessage, query: URLSearchParams): string | null {
    const header = request.headers.authorization;
    if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7);
    return query.get('access_token');
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const raw = await readBody(request);
    const contentType = String(request.headers['content-type'] ?? '');
    let body: unknown = null;
    if (contentType.includes('application/json') && raw.length > 0) body = JSON.parse(raw.toString('utf8'));
    else if (contentType.includes('multipart/form-data')) body = multipartParts(raw, contentType);
    const token = this.tokenOf(request, url.searchParams);
    this.requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)])),
      body:
        body instanceof Map
          ? Object.fromEntries([...body].map(([key, part]) => [key, part.fileName ?? part.data.toString()]))
          : body,
      token,
    });

    await this.gate?.(request.method ?? 'GET', url.pathname);

    if (url.pathname === '/sdk.js') return this.serveSdk(response);

    // media bytes live outside the versioned API, behind the same bearer token, as lookaside URLs do
    const download = /^\/media-download\/([^/]+)$/.exec(url.pathname);
    if (download) {
      const file = this.media.get(download[1] as string);
      if (!token || !this.tokenAllowed(token)) return graphError(response, INVALID_TOKEN);
      if (!file) return graphError(response, { status: 404, code: 100, message: 'Unsupported get request' });
      response.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.data.length });
      response.end(file.data);
      return;
    }

    const match = /^\/(v\d+\.\d+)\/(.+)$/.exec(url.pathname);
    if (!match) return graphError(response, { status: 400, code: 2500, message: 'Unknown path components' });
    const parts = (match[2] as string).split('/');
    const method = request.method ?? 'GET';

    if (parts[0] === 'oauth' && parts[1] === 'access_token') return this.exchangeToken(url.searchParams, response);
    if (!token || !this.tokenAllowed(token)) return graphError(response, INVALID_TOKEN);

    if (parts[0] === 'me' && parts[1] === 'accounts') return this.listPages(token, response);
    const [node, edge] = parts as [string, string | undefined];

    const phone = this.phoneNumbers.get(node);
    if (phone) {
      if (token !== phone.token) return graphError(response, INVALID_TOKEN);
      if (!edge && method === 'GET')
        return json(response, 200, {
          id: phone.id,
          display_phone_number: phone.displayPhoneNumber,
          verified_name: phone.verifiedName,
          quality_rating: 'GREEN',
        });
      if (edge === 'messages' && method === 'POST') return this.sendWhatsapp(phone, body as Record<string, unknown>, response);
      if (edge === 'media' && method === 'POST') return this.upload(body as ReturnType<typeof multipartParts>, response);
    }
    const business = [...this.phoneNumbers.values()].find((candidate) => candidate.businessAccountId === node);
    if (business && edge === 'subscribed_apps' && (method === 'POST' || method === 'DELETE')) {
      if (token !== business.token) return graphError(response, INVALID_TOKEN);
      if (method === 'POST') this.subscribedAccounts.add(node);
      else this.subscribedAccounts.delete(node);
      return json(response, 200, { success: true });
    }
    for (const [accountId, templates] of this.templates) {
      if (node === accountId && edge === 'message_templates') {
        const owner = [...this.phoneNumbers.values()].find((candidate) => candidate.businessAccountId === accountId);
        if (owner && token !== owner.token) return graphError(response, INVALID_TOKEN);
        return json(response, 200, {
          data: templates.map((template) => ({
            name: template.name,
            language: template.language,
            status: template.status,
            category: template.category,
            id: `${accountId}-${template.name}-${template.language}`,
            components: [{ type: 'BODY', text: template.body }],
          })),
          paging: { cursors: { before: 'b', after: 'a' } },
        });
      }
    }
    const page = this.pages.get(node) ?? [...this.pages.values()].find((candidate) => candidate.instagram?.id === node);
    if (page) {
      if (token !== page.token) return graphError(response, INVALID_TOKEN);
      if (edge === 'subscribed_apps' && method === 'POST') {
        this.subscribedPages.add(page.id);
        return json(response, 200, { success: true });
      }
      if (edge === 'subscribed_apps' && method === 'DELETE') {
        this.subscribedPages.delete(page.id);
        return json(response, 200, { success: true });
      }
      if (edge === 'messages' && method === 'POST') return this.sendMessenger(node, formOrJson(body), response);
      if (!edge && method === 'GET')
        return json(response, 200, {
          id: node,
          name: page.name,
          ...(page.instagram ? { instagram_business_account: { id: page.instagram.id } } : {}),
        });
    }
    const file = this.media.get(node);
    if (file && !edge && method === 'GET')
      return json(response, 200, {
        messaging_product: 'whatsapp',
        id: node,
        url: `${this.url}/media-download/${node}`,
        mime_type: file.mimeType,
        file_size: file.data.length,
        sha256: '',
      });
    const profile = this.profiles.get(node);
    if (profile && !edge && method === 'GET') return json(response, 200, { id: node, ...profile });
    return graphError(response, {
      status: 400,
      code: 100,
      subcode: 33,
      message: `Unsupported ${method.toLowerCase()} request. Object with ID '${node}' does not exist`,
    });
  }

  /**
   * A stand-in of Facebook's JS SDK, just what the Connections page calls: `FB.init` remembers the app,
   * `FB.login` answers the browser login's user token as Facebook's does after the user agrees.
   */
  private serveSdk(response: ServerResponse) {
    const token = this.browserLogin?.token ?? this.lastUserToken;
    const login = token
      ? {
          status: 'connected',
          authResponse: { accessToken: token, userID: this.browserLogin?.userId ?? '1000', expiresIn: 3600 },
        }
      : { status: 'unknown', authResponse: null };
    const script = `window.FB = {
  init: function (options) { window.FB._options = options; },
  login: function (callback, options) {
    if (!window.FB._options || !window.FB._options.appId) throw new Error('FB.init was not called');
    window.FB._scope = options && options.scope;
    setTimeout(function () { callback(${JSON.stringify(login)}); }, 0);
  },
};
if (typeof window.fbAsyncInit === 'function') window.fbAsyncInit();
`;
    response.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'access-control-allow-origin': '*',
      'cache-control': 'no-store',
    });
    response.end(script);
  }

  private tokenAllowed(token: string): boolean {
    if (this.userTokens.has(token)) return true;
    for (const phone of this.phoneNumbers.values()) if (phone.token === token) return true;
    for (const page of this.pages.values()) if (page.token === token) return true;
    return token.startsWith('long-lived-') && this.userTokens.has(token.slice('long-lived-'.length));
  }

  private exchangeToken(query: URLSearchParams, response: ServerResponse) {
    if (query.get('client_id') !== this.app.id || query.get('client_secret') !== this.app.secret)
      return graphError(response, { status: 400, code: 101, message: 'Error validating application. Invalid application ID.' });
    const short = query.get('fb_exchange_token') ?? '';
    if (query.get('grant_type') !== 'fb_exchange_token' || !this.userTokens.has(short))
      return graphError(response, INVALID_TOKEN);
    json(response, 200, { access_token: `long-lived-${short}`, token_type: 'bearer', expires_in: 5_184_000 });
  }

  private listPages(token: string, response: ServerResponse) {
    const user = token.startsWith('long-lived-') ? token.slice('long-lived-'.length) : token;
    const pageIds = this.userTokens.get(user) ?? [];
    json(response, 200, {
      data: pageIds.map((id) => {
        const page = this.pages.get(id) as StandInPage;
        return {
          id: page.id,
          name: page.name,
          access_token: page.token,
          category: 'Business',
          tasks: ['MANAGE', 'MESSAGING'],
          ...(page.instagram ? { instagram_business_account: { id: page.instagram.id, username: page.instagram.username } } : {}),
        };
      }),
      paging: { cursors: { before: 'b', after: 'a' } },
    });
  }

  private failure(): StandInError | undefined {
    return this.sendFailures.shift();
  }

  private accept(from: string, to: string, body: Record<string, unknown>, id: string) {
    const sent = { from, to, body, id };
    this.sent.push(sent);
    this.onSend?.(sent);
    return sent;
  }

  private async sendWhatsapp(phone: StandInPhoneNumber, body: Record<string, unknown> | null, response: ServerResponse) {
    if (body?.messaging_product !== 'whatsapp' || typeof body.to !== 'string')
      return graphError(response, { status: 400, code: 100, message: '(#100) Invalid parameter' });
    const failure = this.failure();
    if (failure) return graphError(response, failure);
    const id = `wamid.${Buffer.from(this.nextId('out')).toString('base64url')}`;
    const sent = this.accept(phone.id, body.to, body, id);
    await this.beforeAnswer?.(sent);
    json(response, 200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] });
  }

  private sendMessenger(node: string, body: Record<string, unknown> | null, response: ServerResponse) {
    const recipient = (body?.recipient as { id?: string } | undefined)?.id;
    if (!body || !recipient)
      return graphError(response, { status: 400, code: 100, message: '(#100) The parameter recipient is required' });
    const failure = this.failure();
    if (failure) return graphError(response, failure);
    const id = `m_${this.nextId('')}`;
    this.accept(node, recipient, body, id);
    json(response, 200, { recipient_id: recipient, message_id: id });
  }

  private upload(parts: ReturnType<typeof multipartParts> | null, response: ServerResponse) {
    const file = parts?.get('file');
    if (!file || parts?.get('messaging_product')?.data.toString() !== 'whatsapp')
      return graphError(response, { status: 400, code: 100, message: '(#100) The parameter file is required' });
    json(response, 200, { id: this.addMedia(file.data, file.type ?? 'application/octet-stream') });
  }
}
