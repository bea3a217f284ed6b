import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request, errors as undiciErrors } from 'undici';

/**
 * The guarded client for URLs a tenant configures (a webhook, a bot's address): every request has a
 * deadline, a cap on the answer's size, follows redirects only to the same host, and never reaches the
 * server's own networks — loopback, private, link-local (with the clouds' metadata addresses), unique
 * local, unspecified, carrier-grade NAT and the other special ranges — unless the platform's
 * configuration allows them (`OUTBOUND_HTTP_ALLOW`, README "Configuration"; `ctx.config.outboundHttpAllow`).
 *
 * The addresses are checked inside the connection's own DNS lookup: the address checked is the address
 * connected to, so a name that answers a public address to a check and a private one to the connection
 * (DNS rebinding) gains nothing. docs/plugin-authoring.md "Outbound HTTP".
 */

/** Why a guarded request failed. */
export type OutboundHttpFailure =
  /** Not an absolute http(s) URL. */
  | 'bad-url'
  /** The host resolves to an address the platform does not allow. */
  | 'blocked-address'
  /** A redirect to another host, a downgrade to http, or too many redirects. */
  | 'redirect'
  /** The answer did not come whole within the deadline. */
  | 'timeout'
  /** The answer is larger than the cap. */
  | 'too-large'
  /** The host could not be resolved or reached, or the connection broke. */
  | 'network';

/** A guarded request that did not get an answer (a status of any kind is an answer, not this). */
export class OutboundHttpError extends Error {
  constructor(
    readonly failure: OutboundHttpFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OutboundHttpError';
  }
}

/** A host name resolver: every address the name has (tests pass one to stand for DNS). */
export type OutboundResolver = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export interface OutboundHttpOptions {
  /**
   * Addresses or CIDR ranges (`127.0.0.1/32`, `10.0.0.0/8`, `fd00::/8`) reachable although they are special;
   * the platform's is `ctx.config.outboundHttpAllow`.
   */
  allow?: readonly string[];
  /** Deadline of one request, redirects and body included (default 10 s). */
  timeoutMs?: number;
  /** Largest answer body read (default 1 MiB). */
  maxBytes?: number;
  /** Redirects followed within the same host (default 3). */
  maxRedirects?: number;
  /** Resolves host names (default: the system's resolver, every address). */
  resolve?: OutboundResolver;
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** A body sent as JSON (sets content-type). */
  json?: unknown;
  /** A raw body; `json` wins when both are given. */
  body?: string | Uint8Array;
  /** A shorter deadline than the client's for this request. */
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** The answer's bytes (at most the client's cap). */
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
  text(): string;
  /** The body parsed as JSON; undefined when it isn't JSON. */
  json<T = unknown>(): T | undefined;
}

export interface OutboundHttp {
  request(url: string, options?: OutboundRequest): Promise<OutboundResponse>;
  /** Closes the client's pooled connections. */
  close(): Promise<void>;
}

const METADATA_ADDRESSES = ['169.254.169.254', 'fd00:ec2::254'];

/** Parses an allow-list entry: an address (a single host) or a CIDR range. Throws on anything else. */
export function parseAllowEntry(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const text = entry.trim();
  if (text.includes('/')) return ipaddr.parseCIDR(text);
  const address = ipaddr.parse(text);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** The problems of an allow-list, one per entry that is no address or CIDR range (for config validation). */
export function allowListProblems(entries: readonly string[]): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    try {
      parseAllowEntry(entry);
    } catch {
      problems.push(`'${entry}' is no IP address or CIDR range`);
    }
  }
  return problems;
}

/**
 * Whether an address is one a tenant's URL may not reach by default: anything but public unicast — loopback,
 * private (RFC 1918), unique local (ULA), link-local and the metadata addresses, unspecified, carrier-grade
 * NAT, multicast, broadcast, reserved, and the IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4,
 * Teredo, IPv4-compatible ::/96), which could smuggle one of the others.
 */
export function isSpecialAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  if (METADATA_ADDRESSES.includes(address.toLowerCase())) return true;
  // IPv4-compatible IPv6 (::/96, e.g. ::7f00:1), deprecated but still routed to the IPv4 address by some
  // stacks: ipaddr.js calls it unicast (written dotted, ::a.b.c.d, it reads it as IPv4-mapped instead)
  const raw = ipaddr.parse(address);
  if (
    raw.kind() === 'ipv6' &&
    raw
      .toByteArray()
      .slice(0, 12)
      .every((byte) => byte === 0)
  )
    return true;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address is judged as its IPv4 address
  return parsed.range() !== 'unicast';
}

function allowedBy(address: string, allow: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>): boolean {
  const parsed = ipaddr.process(address);
  return allow.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

const systemResolver: OutboundResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses: LookupAddress[]) => {
      if (error) reject(error);
      else resolve(addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 })));
    });
  });

/** Drops an answer's body unread (destroying it reports an abort nobody listens to). */
function discard(body: { on(event: 'error', listener: () => void): unknown; destroy(): void }) {
  body.on('error', () => {});
  body.destroy();
}

/** Raised inside the connection's lookup; found again in undici's error chain. */
class BlockedAddress extends Error {}

function findCause<T>(error: unknown, kind: new (...args: never[]) => T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current; depth += 1) {
    if (current instanceof kind) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A guarded client (see the file's head). One per feature is enough: it pools connections. */
export function createOutboundHttp(options: OutboundHttpOptions = {}): OutboundHttp {
  const allow = (options.allow ?? []).map(parseAllowEntry);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 3;
  const resolve = options.resolve ?? systemResolver;
  const permitted = (address: string) => !isSpecialAddress(address) || allowedBy(address, allow);

  // the connection's lookup: the one place a name becomes the address connected to
  const lookup = (
    hostname: string,
    lookupOptions: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(new Error(`${hostname} has no address`), '', 4);
          return;
        }
        // every address must pass: the connection may try any of them
        const refused = addresses.find((entry) => !permitted(entry.address));
        if (refused) {
          callback(new BlockedAddress(`${hostname} resolves to ${refused.address}, which is not allowed`), '', 4);
          return;
        }
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
      },
      (error: Error) => callback(error, '', 4),
    );
  };
  const agent = new Agent({
    connect: { lookup: lookup as never, timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  async function once(url: URL, init: OutboundRequest, signal: AbortSignal) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // an address written in the URL is connected to without a lookup: check it here
    if (isIP(host) && !permitted(host)) {
      throw new OutboundHttpError('blocked-address', `${host} is not allowed`);
    }
    const headers: Record<string, string> = { ...init.headers };
    let body: string | Uint8Array | undefined = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] = 'application/json';
    }
    return request(url, {
      dispatcher: agent,
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      signal,
    });
  }

  async function readCapped(
    stream: AsyncIterable<Buffer | Uint8Array> & { on(event: 'error', listener: () => void): unknown; destroy(): void },
  ): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += chunk.length;
      if (size > maxBytes) {
        discard(stream);
        throw new OutboundHttpError('too-large', `the answer is larger than ${maxBytes} bytes`);
      }
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  }

  async function send(target: string, options: OutboundRequest = {}): Promise<OutboundResponse> {
    let init = options;
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new OutboundHttpError('bad-url', 'not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundHttpError('bad-url', 'only http and https');
    const signal = AbortSignal.timeout(init.timeoutMs ?? timeoutMs);
    const originHost = url.hostname;
    try {
      for (let redirects = 0; ; redirects += 1) {
        const answer = await once(url, init, signal);
        const location = answer.headers.location;
        if (answer.statusCode >= 300 && answer.statusCode < 400 && typeof location === 'string') {
          discard(answer.body);
          if (redirects >= maxRedirects) throw new OutboundHttpError('redirect', 'too many redirects');
          const next = new URL(location, url);
          if (next.hostname !== originHost)
            throw new OutboundHttpError('redirect', `a redirect to another host (${next.hostname})`);
          if (url.protocol === 'https:' && next.protocol !== 'https:')
            throw new OutboundHttpError('redirect', 'a redirect to http');
          url = next;
          // 303, and 301/302 after a POST, are read as GET by every client
          if (answer.statusCode === 303 || ((answer.statusCode === 301 || answer.statusCode === 302) && init.method !== 'GET')) {
            init = { ...init, method: 'GET', json: undefined, body: undefined };
          }
          continue;
        }
        const declared = Number(answer.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          discard(answer.body);
          throw new OutboundHttpError('too-large', `the answer is larger than ${maxBytes} bytes`);
        }
        const body = await readCapped(answer.body);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const finalUrl = url.toString();
        return {
          status: answer.statusCode,
          headers,
          body,
          url: finalUrl,
          text: () => body.toString('utf8'),
          json<T>() {
            try {
              return JSON.parse(body.toString('utf8')) as T;
            } catch {
              return undefined;
            }
          },
        };
      }
    } catch (error) {
      if (error instanceof OutboundHttpError) throw error;
      if (findCause(error, BlockedAddress)) {
        throw new OutboundHttpError('blocked-address', (findCause(error, BlockedAddress) as Error).message);
      }
      if (
        signal.aborted ||
        error instanceof undiciErrors.HeadersTimeoutError ||
        error instanceof undiciErrors.BodyTimeoutError ||
        error instanceof undiciErrors.ConnectTimeoutError
      ) {
        throw new OutboundHttpError('timeout', 'no whole answer within the deadline', { cause: error });
      }
      throw new OutboundHttpError('network', (error as Error).message ?? 'network error', { cause: error });
    }
  }

  return { request: send, close: () => agent.close() };
}
