import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowListProblems,
  createOutboundHttp,
  isSpecialAddress,
  OutboundHttpError,
  type OutboundResolver,
} from './outbound-http';

/** A local stand-in: each path answers one way (an echo, a redirect, a slow or huge answer). */
let server: Server;
let port: number;

function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://stand-in');
  if (url.pathname === '/echo') {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ method: request.method, host: request.headers.host, body }));
    });
    return;
  }
  if (url.pathname === '/same-host') {
    response.writeHead(302, { location: '/echo' }).end();
    return;
  }
  if (url.pathname === '/other-host') {
    response.writeHead(302, { location: `http://localhost:${port}/echo` }).end();
    return;
  }
  if (url.pathname === '/loop') {
    response.writeHead(302, { location: '/loop' }).end();
    return;
  }
  if (url.pathname === '/slow') {
    setTimeout(() => response.end('late'), 2_000).unref();
    return;
  }
  if (url.pathname === '/huge') {
    // 5 MB without a content-length: the cap must hold while reading
    response.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < 5 * 1024 * 1024) {
        sent += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end();
    };
    response.on('error', () => {});
    pump();
    return;
  }
  if (url.pathname === '/declared-huge') {
    response.writeHead(200, { 'content-length': String(5 * 1024 * 1024) });
    response.on('error', () => {});
    response.write('x');
    return;
  }
  response.writeHead(404).end('no');
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutboundHttpError) return error.failure;
    throw error;
  }
  return 'answered';
}

/** Names that exist only here: the client can reach them only through the addresses this resolver gives. */
const standInDns =
  (table: Record<string, string[]>): OutboundResolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('isSpecialAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'IPv6 loopback'],
    ['10.1.2.3', 'RFC 1918'],
    ['172.16.0.1', 'RFC 1918'],
    ['172.31.255.254', 'RFC 1918'],
    ['192.168.1.1', 'RFC 1918'],
    ['fc00::1', 'ULA'],
    ['fd12:3456::1', 'ULA'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'IPv6 link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'IPv6 unspecified'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.254', 'CGNAT'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::a00:1', 'IPv4-compatible private'],
    ['::808:808', 'IPv4-compatible, any'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['not-an-address', 'garbage'],
  ])('refuses %s (%s)', (address) => {
    expect(isSpecialAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'lets public %s through',
    (address) => {
      expect(isSpecialAddress(address)).toBe(false);
    },
  );
});

describe('allowListProblems', () => {
  it('accepts addresses and CIDR ranges and names what is neither', () => {
    expect(allowListProblems(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1'])).toEqual([]);
    expect(allowListProblems(['10.0.0.0/8', 'localhost', '10.0.0.0/99'])).toEqual([
      "'localhost' is no IP address or CIDR range",
      "'10.0.0.0/99' is no IP address or CIDR range",
    ]);
  });
});

describe('createOutboundHttp', () => {
  it('refuses a loopback address written in the URL unless allowed', async () => {
    const guarded = createOutboundHttp();
    expect(await failureOf(guarded.request(`http://127.0.0.1:${port}/echo`))).toBe('blocked-address');
    expect(await failureOf(guarded.request(`http://[::1]:${port}/echo`))).toBe('blocked-address');
    expect(await failureOf(guarded.request('http://169.254.169.254/latest/meta-data/'))).toBe('blocked-address');
    await guarded.close();

    const allowed = createOutboundHttp({ allow: ['127.0.0.1/32'] });
    const answer = await allowed.request(`http://127.0.0.1:${port}/echo`, { json: { hello: 'world' } });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ method: 'POST', host: `127.0.0.1:${port}`, body: '{"hello":"world"}' });
    await allowed.close();
  });

  it('refuses a name that resolves to a loopback address (the system resolver: localhost)', async () => {
    const guarded = createOutboundHttp();
    expect(await failureOf(guarded.request(`http://localhost:${port}/echo`))).toBe('blocked-address');
    await guarded.close();
  });

  it('checks the address it connects to: a name reaches the stand-in only through the checked answer', async () => {
    const dns = standInDns({
      'bot.stand-in.test': ['127.0.0.1'],
      'metadata.stand-in.test': ['169.254.169.254'],
      'private.stand-in.test': ['10.0.0.7'],
      'cgnat.stand-in.test': ['100.64.1.1'],
      // a rebinding name answering a public and an internal address: one bad address refuses the name
      'rebind.stand-in.test': ['93.184.216.34', '127.0.0.1'],
    });
    const guarded = createOutboundHttp({ resolve: dns });
    for (const name of ['bot', 'metadata', 'private', 'cgnat', 'rebind']) {
      expect(await failureOf(guarded.request(`http://${name}.stand-in.test:${port}/echo`))).toBe('blocked-address');
    }
    await guarded.close();

    const allowed = createOutboundHttp({ resolve: dns, allow: ['127.0.0.1'] });
    const answer = await allowed.request(`http://bot.stand-in.test:${port}/echo`);
    expect(answer.json()).toMatchObject({ method: 'GET', host: `bot.stand-in.test:${port}` });
    // allowed loopback does not open other ranges
    expect(await failureOf(allowed.request(`http://private.stand-in.test:${port}/echo`))).toBe('blocked-address');
    await allowed.close();
  });

  it('checks every connection again: a name that rebinds between requests is refused on the second', async () => {
    let calls = 0;
    const rebinding: OutboundResolver = async () => {
      calls += 1;
      return [{ address: calls === 1 ? '127.0.0.1' : '10.9.9.9', family: 4 }];
    };
    const guarded = createOutboundHttp({ resolve: rebinding, allow: ['127.0.0.1'] });
    expect((await guarded.request(`http://flip.stand-in.test:${port}/echo`, { headers: { connection: 'close' } })).status).toBe(
      200,
    );
    expect(await failureOf(guarded.request(`http://flip.stand-in.test:${port}/echo`))).toBe('blocked-address');
    await guarded.close();
  });

  it('follows a redirect within the host and refuses one to another host or a loop', async () => {
    const guarded = createOutboundHttp({ allow: ['127.0.0.1', '::1'] });
    const answer = await guarded.request(`http://127.0.0.1:${port}/same-host`);
    expect(answer.status).toBe(200);
    expect(answer.url).toBe(`http://127.0.0.1:${port}/echo`);
    expect(await failureOf(guarded.request(`http://127.0.0.1:${port}/other-host`))).toBe('redirect');
    expect(await failureOf(guarded.request(`http://127.0.0.1:${port}/loop`))).toBe('redirect');
    await guarded.close();
  });

  it('gives up on a slow answer at its deadline', async () => {
    const guarded = createOutboundHttp({ allow: ['127.0.0.1'], timeoutMs: 300 });
    const started = Date.now();
    expect(await failureOf(guarded.request(`http://127.0.0.1:${port}/slow`))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
    await guarded.close();
  });

  it('stops reading past the size cap, declared or not', async () => {
    const guarded = createOutboundHttp({ allow: ['127.0.0.1'], maxBytes: 256 * 1024 });
    expect(await failureOf(guarded.request(`http://127.0.0.1:${port}/huge`))).toBe('too-large');
    expect(await failureOf(guarded.request(`http://127.0.0.1:${port}/declared-huge`))).toBe('too-large');
    await guarded.close();
  });

  it('refuses what is no http(s) URL', async () => {
    const guarded = createOutboundHttp();
    expect(await failureOf(guarded.request('file:///etc/passwd'))).toBe('bad-url');
    expect(await failureOf(guarded.request('not a url'))).toBe('bad-url');
    await guarded.close();
  });
});
