import type { FastifyInstance } from 'fastify';
import type { JobRunner } from '../jobs/job-runner';
import type { RealtimeServer } from '../realtime/realtime-server';
import type { ProcessMetrics } from './metrics';

/** States of a bee-queue queue that `balcao_job_queue_depth` reports. */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * The core's own metrics: every answered request's latency by its route pattern (a request no route
 * matched counts under `unmatched`, so a scan of random URLs can't grow the label set), the socket
 * connections of this process, and the depth of every job queue (read from Redis at each scrape, the
 * same on every process: a dashboard takes their max, not their sum).
 */
export function installCoreMetrics(
  app: FastifyInstance,
  metrics: ProcessMetrics,
  parts: { jobs: JobRunner; realtime: RealtimeServer },
): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  metrics.gauge({
    name: 'socket_connections',
    help: 'socket.io connections open on this process',
    collect: () => [{ value: parts.realtime.io.engine?.clientsCount ?? 0 }],
  });
  metrics.gauge({
    name: 'job_queue_depth',
    help: 'Jobs of each queue (feature) by state, across every process: waiting, active, delayed, failed (kept)',
    labelNames: ['queue', 'state'],
    async collect() {
      const depths = await parts.jobs.depths();
      return depths.flatMap((depth) =>
        QUEUE_STATES.map((state) => ({ labels: { queue: depth.queue, state }, value: depth[state] })),
      );
    },
  });
}
