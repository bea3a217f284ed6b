import type {
  BalcaoServices,
  PermissionTable,
  PlanService,
  ServiceRegistry,
  SettingsService,
  StorageService,
} from '@balcao/plugin-sdk/server';
import type { FastifyBaseLogger } from 'fastify';
import type { Knex } from 'knex';
import type { ApiKeyService } from './auth/api-keys';
import type { Authenticator } from './auth/authenticator';
import type { LoginThrottle } from './auth/throttle';
import type { TokenService } from './auth/tokens';
import type { AppConfig } from './config';
import type { EventBusImpl } from './events/bus';
import type { FeatureBroadcast } from './infra/broadcast';
import type { RedisClient } from './infra/redis';
import type { JobRunner, Scheduler } from './jobs/job-runner';
import type { Mailer } from './mail/mailer';
import type { ProcessMetrics } from './metrics/metrics';
import type { RealtimeServer } from './realtime/realtime-server';
import type { InvalidationBus } from './tenancy/invalidation';
import type { SessionStore } from './tenancy/session-store';

/** Every service of the core, wired once by buildApp and handed to core routes and to plugin contexts. */
export interface CoreServices {
  config: AppConfig;
  log: FastifyBaseLogger;
  knex: Knex;
  redis: RedisClient;
  invalidation: InvalidationBus;
  broadcast: FeatureBroadcast;
  sessions: SessionStore;
  tokens: TokenService;
  authenticator: Authenticator;
  /** API keys of machine clients (docs/api.md "API keys"). */
  apiKeys: ApiKeyService;
  throttle: LoginThrottle;
  realtime: RealtimeServer;
  jobs: JobRunner;
  scheduler: Scheduler;
  events: EventBusImpl;
  settings: SettingsService;
  storage: StorageService;
  mailer: Mailer;
  plans: PlanService;
  services: ServiceRegistry;
  /** The merged permission table (core plus every feature's). */
  permissions: PermissionTable;
  /** This process's Prometheus metrics; null while `METRICS_TOKEN` is unset. */
  metrics: ProcessMetrics | null;
}

/** A registry of services that features publish to each other. */
export function createServiceRegistry(): ServiceRegistry {
  const services = new Map<string, unknown>();
  return {
    provide(name, implementation) {
      if (services.has(name)) throw new Error(`service '${String(name)}' is already provided`);
      services.set(name, implementation);
    },
    use<K extends keyof BalcaoServices>(name: K): BalcaoServices[K] {
      if (!services.has(name))
        throw new Error(`service '${String(name)}' is not provided: is its feature installed and listed in dependsOn?`);
      return services.get(name) as BalcaoServices[K];
    },
    has: (name) => services.has(name),
  };
}
