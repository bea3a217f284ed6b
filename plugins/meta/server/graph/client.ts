import { randomBytes } from 'node:crypto';
import { createOutboundHttp, type OutboundHttp, OutboundHttpError } from '@balcao/plugin-sdk/server';
import type { MetaContext } from '../config';

/** An error answer of the Graph API (`{ error: { code, error_subcode, message } }`), or no answer at all. */
export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly subcode: number | null = null,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

export interface GraphCall {
  method?: 'GET' | 'POST' | 'DELETE';
  token?: string;
  query?: Record<string, string>;
  json?: unknown;
  /** A multipart body (media upload). */
  form?: { fields: Record<string, string>; file: { name: string; data: Buffer; mimetype: string }; fileField?: string };
}

/**
 * Our one client of the Graph API: every call goes through the SDK's guarded outbound client (the Graph's
 * host must be allowed like any other), to `META_GRAPH_URL/META_GRAPH_VERSION/...`, with the token as a
 * bearer header. Graph errors become GraphError (mapped to our codes by graph/errors.ts).
 */
export class GraphClient {
  private readonly http: OutboundHttp;
  private readonly media: OutboundHttp;

  constructor(
    private readonly ctx: MetaContext,
    allow: readonly string[],
  ) {
    this.http = createOutboundHttp({ allow, timeoutMs: 10_000, maxBytes: 2 * 1_048_576 });
    this.media = createOutboundHttp({ allow, timeoutMs: 60_000, maxBytes: ctx.config.META_MEDIA_MAX_BYTES });
  }

  get base(): string {
    return `${this.ctx.config.META_GRAPH_URL}/${this.ctx.config.META_GRAPH_VERSION}`;
  }

  async call<T>(path: string, call: GraphCall = {}): Promise<T> {
    const url = new URL(`${this.base}/${path}`);
    for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, value);
    const headers: Record<string, string> = {};
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    let body: Uint8Array | undefined;
    if (call.form) {
      const boundary = `balcao${randomBytes(12).toString('hex')}`;
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      body = multipart(boundary, call.form);
    }
    let response: Awaited<ReturnType<OutboundHttp['request']>>;
    try {
      response = await this.http.request(url.toString(), {
        method: call.method ?? 'GET',
        headers,
        ...(call.json !== undefined ? { json: call.json } : {}),
        ...(body ? { body } : {}),
      });
    } catch (error) {
      if (error instanceof OutboundHttpError) throw new GraphError(0, -1, `graph unreachable: ${error.failure}`);
      throw error;
    }
    const answer = response.json<{ error?: { code?: number; error_subcode?: number; message?: string } }>();
    if (response.status >= 400 || answer?.error) {
      const error = answer?.error ?? {};
      throw new GraphError(
        response.status,
        Number(error.code ?? -1),
        String(error.message ?? `HTTP ${response.status}`),
        error.error_subcode ?? null,
      );
    }
    if (answer === undefined) throw new GraphError(response.status, -1, 'graph answered no JSON');
    return answer as T;
  }

  /** A media file behind a Graph URL (a bearer token is needed, as for every lookaside URL). */
  async download(url: string, token: string): Promise<{ data: Buffer; mimetype: string }> {
    try {
      const response = await this.media.request(url, { headers: { authorization: `Bearer ${token}` } });
      if (response.status >= 400) throw new GraphError(response.status, -1, `media answered ${response.status}`);
      return { data: response.body, mimetype: response.headers['content-type'] ?? 'application/octet-stream' };
    } catch (error) {
      // a file over META_MEDIA_MAX_BYTES is as large on every try: 413, a refusal, not an outage
      if (error instanceof OutboundHttpError && error.failure === 'too-large') throw new GraphError(413, -1, error.message);
      if (error instanceof OutboundHttpError) throw new GraphError(0, -1, `media unreachable: ${error.failure}`);
      throw error;
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.http.close(), this.media.close()]);
  }
}

function multipart(boundary: string, form: NonNullable<GraphCall['form']>): Uint8Array {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(form.fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  const fileName = form.file.name.replace(/["\r\n]/g, '_');
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${form.fileField ?? 'file'}"; filename="${fileName}"\r\nContent-Type: ${form.file.mimetype}\r\n\r\n`,
    ),
    form.file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return new Uint8Array(Buffer.concat(chunks));
}

const clients = new WeakMap<object, GraphClient>();

/** The Graph client of this app's Meta plugin (one per context, closed with it). */
export function graphOf(ctx: MetaContext): GraphClient {
  let client = clients.get(ctx);
  if (!client) {
    client = new GraphClient(ctx, ctx.config.outboundHttpAllow);
    clients.set(ctx, client);
  }
  return client;
}

export async function closeGraph(ctx: MetaContext): Promise<void> {
  const client = clients.get(ctx);
  clients.delete(ctx);
  await client?.close();
}
