import { createHash, timingSafeEqual } from 'node:crypto';
import { NoQuery, Type } from '@balcao/plugin-sdk/server';
import type { FastifyInstance } from 'fastify';
import { bearerToken } from '../http/access-hook';
import type { ProcessMetrics } from './metrics';

/** Compares digests so that the comparison takes as long whatever the token sent. */
function sameToken(sent: string | undefined, expected: string): boolean {
  if (!sent) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(sent), digest(expected));
}

/**
 * `GET /metrics`: the process's metrics in Prometheus's text format, for a scraper holding
 * `METRICS_TOKEN` as a bearer token. Unset, the route answers 404 as if it didn't exist (not the shell's
 * page), so an installation that doesn't scrape shows nothing of itself.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: ProcessMetrics | null, token: string | null): void {
  const schema = {
    hide: true,
    querystring: NoQuery,
    response: {
      200: Type.String({ description: "Prometheus's text exposition format" }),
      401: Type.Object({ error: Type.String() }),
      404: Type.Object({ error: Type.String() }),
    },
  };
  app.get('/metrics', { schema, config: { access: 'public' } }, async (request, reply) => {
    if (!metrics || !token) return reply.status(404).send({ error: 'ERR_NOT_FOUND' });
    if (!sameToken(bearerToken(request), token)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return reply.status(401).send({ error: 'ERR_UNAUTHENTICATED' });
    }
    const { contentType, body } = await metrics.exposition();
    return reply.header('Cache-Control', 'no-store').type(contentType).send(body);
  });
}
