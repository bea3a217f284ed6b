import type {
  MetricCounter,
  MetricGaugeOptions,
  MetricLabels,
  MetricOptions,
  MetricSample,
  MetricsService,
} from '@balcao/plugin-sdk/server';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Every metric of Balcão starts with this; Node's own (`nodejs_…`, `process_…`) keep prom-client's names. */
export const METRIC_PREFIX = 'balcao_';

const METRIC_NAME = /^[a-z][a-z0-9_]*$/;
const LABEL_NAME = /^[a-z][a-z0-9_]*$/;

/** HTTP latency buckets (seconds): the inbox's calls answer in milliseconds, exports in seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const NOOP_COUNTER: MetricCounter = { inc() {} };

/** Features' metrics when `METRICS_TOKEN` is unset: they count nothing and cost a call. */
export const DISABLED_METRICS: MetricsService = {
  enabled: false,
  counter: () => NOOP_COUNTER,
  gauge() {},
};

function labelValues(labels: MetricLabels | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  if (labels) for (const [key, value] of Object.entries(labels)) values[key] = String(value);
  return values;
}

/**
 * The metrics of one process (one per app: tests build several apps in one process): the core's own —
 * HTTP latency by route pattern, jobs run and queue depths, socket connections, Node's event-loop lag,
 * heap and CPU — and those features declare through `ctx.metrics`. Built only when `METRICS_TOKEN` is set,
 * so an installation that doesn't scrape pays nothing (no hook on requests, no event-loop monitor).
 */
export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly jobsRun: Counter<'queue' | 'job' | 'outcome'>;
  private readonly counters = new Map<string, { counter: Counter<string>; labelNames: string[] }>();
  private readonly gauges = new Set<string>();

  constructor(role: 'web' | 'worker' | 'all') {
    this.registry.setDefaultLabels({ role });
    // event-loop lag (`nodejs_eventloop_lag_*`), heap, GC, CPU and file descriptors, read at each scrape
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    this.httpDuration = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'HTTP requests by method, route pattern and status code: how long the answer took',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers: [this.registry],
    });
    this.jobsRun = new Counter({
      name: `${METRIC_PREFIX}jobs_total`,
      help: 'Background jobs this process ran, by queue (feature), job and outcome (completed, failed)',
      labelNames: ['queue', 'job', 'outcome'],
      registers: [this.registry],
    });
  }

  /** One answered request; `route` is the matched pattern (`/api/tickets/:ticketId`), never the raw URL. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_code: String(statusCode) }, seconds);
  }

  /** One job run to its end in this process. */
  jobFinished(queue: string, job: string, outcome: 'completed' | 'failed'): void {
    this.jobsRun.inc({ queue, job, outcome });
  }

  /** A gauge read at each scrape (the core's and features'); declaring a name again replaces it. */
  gauge(options: MetricGaugeOptions): void {
    const name = checkedName(options);
    // a part that starts again (a feature's area restarted) declares its gauge again: the newer one reads
    if (this.gauges.has(name)) this.registry.removeSingleMetric(name);
    this.gauges.add(name);
    new Gauge({
      name,
      help: options.help,
      labelNames: [...(options.labelNames ?? [])],
      registers: [this.registry],
      async collect() {
        this.reset();
        const samples: MetricSample[] = await options.collect();
        for (const sample of samples) this.set(labelValues(sample.labels), sample.value);
      },
    });
  }

  /** A counter; declaring one name twice with the same labels hands back the same counter. */
  counter(options: MetricOptions): MetricCounter {
    const name = checkedName(options);
    const labelNames = [...(options.labelNames ?? [])];
    const existing = this.counters.get(name);
    if (existing) {
      if (existing.labelNames.join(',') !== labelNames.join(',')) {
        throw new Error(`metric ${name} is already declared with labels ${existing.labelNames.join(', ')}`);
      }
      return wrapCounter(existing.counter);
    }
    const counter = new Counter({ name, help: options.help, labelNames, registers: [this.registry] });
    this.counters.set(name, { counter, labelNames });
    return wrapCounter(counter);
  }

  /** What features see as `ctx.metrics`. */
  service(): MetricsService {
    return { enabled: true, counter: (options) => this.counter(options), gauge: (options) => this.gauge(options) };
  }

  /** The text exposition format Prometheus scrapes. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

function checkedName(options: MetricOptions): string {
  if (!METRIC_NAME.test(options.name)) throw new Error(`metric name '${options.name}' must match ${METRIC_NAME}`);
  for (const label of options.labelNames ?? []) {
    if (!LABEL_NAME.test(label)) throw new Error(`metric ${options.name}: label '${label}' must match ${LABEL_NAME}`);
  }
  return `${METRIC_PREFIX}${options.name}`;
}

function wrapCounter(counter: Counter<string>): MetricCounter {
  return {
    inc(labels, value = 1) {
      counter.inc(labelValues(labels), value);
    },
  };
}
