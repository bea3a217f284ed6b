import type { WebchatErrorBody } from '../shared/webchat';

/** A refused call of the widget's public API: `code` is the server's `ERR_…`, or NETWORK / HTTP_<status>. */
export class WebchatCallError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly body: Partial<WebchatErrorBody> = {},
  ) {
    super(code);
  }
}

export interface CallOptions {
  /** Default: GET, or POST with a body. */
  method?: 'DELETE';
  sessionToken?: string | null;
  json?: unknown;
}

/**
 * One call of `<api>/webchat/<widgetKey><path>`: cross-origin, without cookies (the session travels as a
 * bearer token), JSON in and out; a 204 resolves undefined.
 */
export async function callWebchat<T>(api: string, widgetKey: string, path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.sessionToken) headers.authorization = `Bearer ${options.sessionToken}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(webchatUrl(api, widgetKey, path), {
      method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
      mode: 'cors',
      credentials: 'omit',
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
    });
  } catch {
    throw new WebchatCallError('NETWORK', 0);
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => ({}))) as T & Partial<WebchatErrorBody>;
  if (!response.ok) throw new WebchatCallError(body.error ?? `HTTP_${response.status}`, response.status, body);
  return body;
}

export function webchatUrl(api: string, widgetKey: string, path: string): string {
  return `${api.replace(/\/$/, '')}/webchat/${encodeURIComponent(widgetKey)}${path}`;
}
