/**
 * The topology test's load balancer: a small reverse proxy in front of the web processes, doing what the
 * deployment's Caddy does (deploy/Caddyfile): round robin over the processes whose `/readyz` answers 200,
 * health-checked every `intervalMs`; a request whose connection a process refuses (it is stopping) goes to
 * the next one, for up to `tryForMs`; WebSocket upgrades are passed through as they are.
 *
 * A retry happens only when the connection was refused, never after a request reached a process: a POST
 * the process may have handled is never sent twice. Each proxied request opens its own connection to the
 * process, so a stopping process never sees a request on a kept-alive connection it is about to close.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface Upstream {
  host: string;
  port: number;
  healthy: boolean;
}

/** Headers of one hop only (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

function withoutHopHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export class Balancer {
  readonly upstreams: Upstream[];
  /** Requests answered 502 because no process took them within `tryForMs`. */
  failed = 0;
  /** Requests sent to another process after one refused the connection. */
  retried = 0;
  private next = 0;
  private readonly server: Server;
  private timer: NodeJS.Timeout | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    targets: Array<{ host: string; port: number }>,
    private readonly options: { intervalMs: number; tryForMs: number },
  ) {
    this.upstreams = targets.map((target) => ({ ...target, healthy: false }));
    this.server = createServer((req, res) => {
      void readBody(req).then(
        (body) => this.forward(req, body, res, new Set(), Date.now() + this.options.tryForMs),
        () => res.destroy(),
      );
    });
    this.server.on('upgrade', (req: IncomingMessage, client: Socket, head: Buffer) => this.tunnel(req, client, head));
  }

  /** Listens on `host`, checks the processes once, then every interval; answers the proxy's URL. */
  async listen(host: string): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, host, () => resolve()));
    await this.checkAll();
    const loop = () => {
      this.timer = setTimeout(() => void this.checkAll().finally(loop), this.options.intervalMs);
    };
    loop();
    const address = this.server.address();
    return `http://${host}:${typeof address === 'object' && address ? address.port : 0}`;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async checkAll(): Promise<void> {
    await Promise.all(
      this.upstreams.map(async (upstream) => {
        upstream.healthy = await fetch(`http://${upstream.host}:${upstream.port}/readyz`, {
          signal: AbortSignal.timeout(1_000),
        }).then(
          (res) => res.status === 200,
          () => false,
        );
      }),
    );
  }

  /** The next healthy process in turn that hasn't refused this request yet. */
  private pick(tried: Set<Upstream>): Upstream | undefined {
    for (let i = 0; i < this.upstreams.length; i += 1) {
      const upstream = this.upstreams[(this.next + i) % this.upstreams.length] as Upstream;
      if (upstream.healthy && !tried.has(upstream)) {
        this.next = (this.next + i + 1) % this.upstreams.length;
        return upstream;
      }
    }
    return undefined;
  }

  private forward(
    req: IncomingMessage,
    body: Buffer,
    res: import('node:http').ServerResponse,
    tried: Set<Upstream>,
    deadline: number,
  ): void {
    const upstream = this.pick(tried);
    if (!upstream) {
      if (Date.now() > deadline) {
        this.failed += 1;
        res.writeHead(502, { 'content-type': 'application/json' }).end('{"error":"ERR_NO_UPSTREAM"}');
        return;
      }
      // every process refused or is out: a new round after the next health check may find one back
      setTimeout(() => this.forward(req, body, res, new Set(), deadline), 50);
      return;
    }
    const headers = withoutHopHeaders(req.headers);
    if (body.length > 0 || req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
      headers['content-length'] = String(body.length);
    }
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    const outgoing = request(
      { host: upstream.host, port: upstream.port, method: req.method, path: req.url, headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, withoutHopHeaders(answer.headers));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && !res.headersSent) {
        // nothing reached the process: the next one may take it
        upstream.healthy = false;
        tried.add(upstream);
        this.retried += 1;
        this.forward(req, body, res, tried, deadline);
        return;
      }
      this.failed += 1;
      if (res.headersSent) res.destroy();
      else
        res
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'ERR_UPSTREAM_FAILED', code: error.code }));
    });
    outgoing.end(body);
  }

  private tunnel(req: IncomingMessage, client: Socket, head: Buffer): void {
    const upstream = this.pick(new Set());
    if (!upstream) {
      client.destroy();
      return;
    }
    const server = connect(upstream.port, upstream.host, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      server.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) server.write(head);
      server.pipe(client);
      client.pipe(server);
    });
    this.sockets.add(client);
    this.sockets.add(server);
    const end = () => {
      client.destroy();
      server.destroy();
      this.sockets.delete(client);
      this.sockets.delete(server);
    };
    server.on('error', end);
    client.on('error', end);
    server.on('close', end);
    client.on('close', end);
  }
}
