import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The only paths a worker process answers: what an orchestrator and a scraper need of it. */
const WORKER_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * A `worker` process serves no API, but its orchestrator probes it and Prometheus scrapes it: this small
 * listener (`WORKER_PORT`) hands `GET /healthz`, `/readyz` and `/metrics` to the app's own routes (through
 * `inject`, so the checks and the token are the web process's) and answers 404 to anything else.
 */
export async function listenWorkerHttp(app: FastifyInstance, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    const pathname = url.split('?')[0] ?? '/';
    if (request.method !== 'GET' || !WORKER_PATHS.has(pathname)) {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end('{"error":"ERR_NOT_FOUND"}');
      return;
    }
    const authorization = request.headers.authorization;
    app
      .inject({ method: 'GET', url, headers: authorization ? { authorization } : {} })
      .then((answer) => {
        const contentType = answer.headers['content-type'];
        response.writeHead(answer.statusCode, contentType ? { 'content-type': String(contentType) } : {}).end(answer.rawPayload);
      })
      .catch(() => {
        response.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
