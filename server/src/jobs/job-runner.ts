import {
  type AnyPlanFlag,
  AppError,
  currentTenant,
  type EnqueueOptions,
  type JobDefinition,
  type PluginContext,
  runInTenant,
} from '@balcao/plugin-sdk/server';
import BeeQueue from 'bee-queue';
import type { FastifyBaseLogger } from 'fastify';
import type { RedisClient } from '../infra/redis';

interface FeatureJobs {
  featureId: string;
  planFlag: AnyPlanFlag | null;
  jobs: Record<string, JobDefinition>;
  ctx: PluginContext;
  queue: BeeQueue<JobPayload>;
}

/** What a job carries in Redis: its name inside the feature, its company and its data. */
interface JobPayload {
  name: string;
  companyId: number | null;
  data: Record<string, unknown>;
}

export interface JobRunnerOptions {
  redisUrl: string;
  prefix: string;
  /** Whether this process processes jobs (role worker or all) or only enqueues them (web). */
  isWorker: boolean;
  log: FastifyBaseLogger;
  hasFlag(companyId: number, flag: AnyPlanFlag): Promise<boolean>;
  /**
   * How long a running job may go without its worker's heartbeat before another worker takes it back
   * (bee-queue's `stallInterval`); default 30 s. Every process of a deployment uses the same value.
   */
  stallIntervalMs?: number;
  /** Told of every job this process runs to its end (metrics). */
  onFinished?(queue: string, job: string, outcome: 'completed' | 'failed'): void;
}

/** How many jobs of one queue wait, run, wait for their time, or failed and are kept (across every process). */
export interface QueueDepth {
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/**
 * A worker that hasn't beaten for a running job in 30 s is taken for dead. bee-queue's own 5 s would take back
 * the job of a worker only paused (a long garbage collection, a starved CPU) and run it twice at once.
 */
const DEFAULT_STALL_INTERVAL_MS = 30_000;

/**
 * Background jobs on bee-queue: one queue per feature (fewer Redis connections than one per job),
 * handlers dispatched by name, each run in its job's company scope. Plan flags are checked when a job is
 * enqueued and again when it runs (the plan may have changed in between).
 */
export class JobRunner {
  private readonly features = new Map<string, FeatureJobs>();
  private started = false;

  constructor(private readonly options: JobRunnerOptions) {}

  register(featureId: string, planFlag: AnyPlanFlag | null, jobs: Record<string, JobDefinition>, ctx: PluginContext): void {
    if (Object.keys(jobs).length === 0) return;
    const queue = new BeeQueue<JobPayload>(featureId, {
      prefix: `${this.options.prefix}:bq`,
      redis: { url: this.options.redisUrl } as BeeQueue.QueueSettings['redis'],
      isWorker: this.options.isWorker,
      getEvents: false,
      sendEvents: false,
      storeJobs: false,
      activateDelayedJobs: this.options.isWorker,
      removeOnSuccess: true,
      removeOnFailure: false,
      stallInterval: this.options.stallIntervalMs ?? DEFAULT_STALL_INTERVAL_MS,
    });
    queue.on('error', (error) => this.options.log.error({ err: error, featureId }, 'job queue error'));
    this.features.set(featureId, { featureId, planFlag, jobs, ctx, queue });
  }

  /** Starts processing (worker role) once every feature has registered. */
  async start(): Promise<void> {
    this.started = true;
    await Promise.all([...this.features.values()].map((feature) => feature.queue.ready()));
    if (!this.options.isWorker) return;
    for (const feature of this.features.values()) {
      const concurrency = Math.max(1, ...Object.values(feature.jobs).map((job) => job.concurrency ?? 1));
      feature.queue.process(concurrency, (job) => this.run(feature, job));
      // a worker killed mid-job leaves the job "active" with nobody beating for it: every worker looks for
      // such jobs twice a stall interval and puts them back in line, so a kill -9 delays a job, never loses it
      const stallMs = this.options.stallIntervalMs ?? DEFAULT_STALL_INTERVAL_MS;
      void feature.queue
        .checkStalledJobs(Math.max(1, Math.floor(stallMs / 2)))
        .catch((error: unknown) =>
          this.options.log.error({ err: error, featureId: feature.featureId }, 'stalled job check failed'),
        );
    }
  }

  /** Enqueues `name` (`job` of `callerId`, or `feature:job`). Resolves null when `jobId` is already pending. */
  async enqueue(callerId: string, name: string, data: Record<string, unknown>, options: EnqueueOptions = {}) {
    const [featureId, jobName] = name.includes(':') ? (name.split(':', 2) as [string, string]) : [callerId, name];
    const feature = this.features.get(featureId);
    if (!feature?.jobs[jobName]) throw new Error(`Unknown job ${featureId}:${jobName}`);
    const scope = currentTenant()?.companyId;
    // inside a company's scope (a request, a job, an event), work is enqueued for that company only
    if (options.companyId !== undefined && scope !== undefined && options.companyId !== scope) {
      throw new Error(`Job ${featureId}:${jobName}: company ${options.companyId} named from the scope of company ${scope}`);
    }
    const companyId = options.companyId ?? scope ?? null;
    if (feature.planFlag && companyId !== null && !(await this.options.hasFlag(companyId, feature.planFlag))) {
      throw new AppError('ERR_PLAN_FEATURE_DISABLED');
    }
    const job = feature.queue.createJob({ name: jobName, companyId, data });
    // the id is the company's own: the same jobId of two companies makes two jobs, not one
    const id = options.jobId ? `${jobName}:${companyId ?? 'system'}:${options.jobId}` : undefined;
    if (id) job.setId(id);
    if (options.delayMs && options.delayMs > 0) job.delayUntil(Date.now() + options.delayMs);
    if (options.retries) job.retries(options.retries).backoff('exponential', 1_000);
    if (options.timeoutMs) job.timeout(options.timeoutMs);
    let saved = await job.save();
    if (!saved.id && id) {
      // a failed job keeps its id in Redis (for inspection): it is over, so a new enqueue replaces it
      if ((await feature.queue.getJob(id))?.status === 'failed') {
        await feature.queue.removeJob(id);
        saved = await job.setId(id).save();
      }
    }
    return saved.id ? { id: saved.id } : null;
  }

  private async run(feature: FeatureJobs, job: BeeQueue.Job<JobPayload>): Promise<unknown> {
    const { name, companyId, data } = job.data;
    const definition = feature.jobs[name];
    if (!definition) throw new Error(`No handler for job ${feature.featureId}:${name}`);
    if (feature.planFlag && companyId !== null && !(await this.options.hasFlag(companyId, feature.planFlag))) {
      this.options.log.info({ job: `${feature.featureId}:${name}`, companyId }, 'job skipped: plan flag off');
      return { skipped: 'plan' };
    }
    const execute = () => definition.handler(data, feature.ctx, { id: job.id, companyId });
    try {
      const result = await (companyId === null ? execute() : runInTenant({ companyId }, execute));
      this.options.onFinished?.(feature.featureId, name, 'completed');
      return result;
    } catch (error) {
      this.options.log.error({ err: error, job: `${feature.featureId}:${name}`, companyId }, 'job failed');
      this.options.onFinished?.(feature.featureId, name, 'failed');
      throw error;
    }
  }

  /** Every queue's depth, read from Redis (one round trip per queue). */
  async depths(): Promise<QueueDepth[]> {
    return Promise.all(
      [...this.features.values()].map(async ({ featureId, queue }) => {
        const health = await queue.checkHealth();
        return {
          queue: featureId,
          waiting: health.waiting,
          active: health.active,
          delayed: health.delayed,
          failed: health.failed,
        };
      }),
    );
  }

  /** Stops taking jobs, waits for running ones (up to `timeoutMs`), closes connections. */
  async close(timeoutMs = 5_000): Promise<void> {
    if (!this.started) {
      await Promise.all([...this.features.values()].map((feature) => feature.queue.close(0).catch(() => {})));
      return;
    }
    await Promise.all([...this.features.values()].map((feature) => feature.queue.close(timeoutMs).catch(() => {})));
  }
}

/**
 * Repeating work: each schedule enqueues its job once per period across every worker process (a Redis
 * key per period slot decides which process does it). bee-queue has no cron of its own.
 */
export class Scheduler {
  private readonly timers: NodeJS.Timeout[] = [];
  /** Ticks still enqueueing: close() waits for them while Redis is still open. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  every(name: string, everyMs: number, enqueue: () => Promise<unknown>): void {
    const tick = async () => {
      const slot = Math.floor(Date.now() / everyMs);
      try {
        const won = await this.redis.set(`${this.prefix}:sched:${name}:${slot}`, '1', { NX: true, PX: everyMs * 2 });
        if (won) await enqueue();
      } catch (error) {
        this.log.error({ err: error, schedule: name }, 'schedule tick failed');
      }
    };
    const run = () => {
      const work = tick();
      this.running.add(work);
      void work.finally(() => this.running.delete(work));
    };
    const timer = setInterval(run, everyMs);
    timer.unref();
    this.timers.push(timer);
    run();
  }

  /** Stops the schedules and waits for the ticks already under way. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
    await Promise.allSettled([...this.running]);
  }
}
