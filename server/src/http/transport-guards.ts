import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance } from 'fastify';

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Fastify's `clientErrorHandler`: what the HTTP parser refuses before any route runs (headers past the
 * size limit, a malformed request line) is answered in the API's error shape, `{ error: 'ERR_…' }`.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'ERR_HEADERS_TOO_LARGE']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'ERR_REQUEST_TIMEOUT']
        : [400, 'Bad Request', 'ERR_BAD_REQUEST'];
  const body = JSON.stringify({ error: code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** A 400 ERR_VALIDATION about the body as a whole, in the shape the error handler reports schema failures. */
const badBody = (message: string) =>
  Object.assign(new Error(message), {
    statusCode: 400,
    validation: [{ instancePath: '', keyword: 'body', message, params: {} }],
    validationContext: 'body',
  }) as FastifyError;

/**
 * Request-level guards every route shares:
 * - JSON bodies must be UTF-8: the default parser decodes invalid bytes into U+FFFD and stores them
 *   silently; here they are refused with 400 ERR_VALIDATION (the same JSON parsing otherwise).
 * - a multipart request must name its boundary: without one the upload parser fails inside the route
 *   (a 500); here it is a 400 before any route runs.
 */
export function installTransportGuards(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      done(badBody('must be UTF-8 text'), undefined);
      return;
    }
    parseJson(request, text, done);
  });
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type'];
    if (typeof type !== 'string' || !/^\s*multipart\//i.test(type)) return;
    if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(type)) {
      throw badBody('multipart/form-data must name its boundary');
    }
  });
}
