import { type AccessService, AppError, can, type PluginContext, type SessionUser } from '@balcao/plugin-sdk/server';
import { AuthService } from '../auth/auth.service';
import { hashPassword } from '../auth/passwords';
import type { CoreServices } from '../core-services';
import { mailService } from '../mail/mailer';
import { DISABLED_METRICS } from '../metrics/metrics';
import { createTenancyService } from '../tenancy/company-creator';
import type { DiscoveredPlugin } from './discover';

/** The typed context a feature receives: the core's services, namespaced to the feature where it matters. */
export function createPluginContext(
  core: CoreServices,
  plugin: Pick<DiscoveredPlugin, 'manifest'>,
  featureConfig: Record<string, unknown>,
): PluginContext {
  const id = plugin.manifest.id;
  const access: AccessService = {
    can: (user, permission) => can(user, permission, core.permissions),
    async sessionUser(request) {
      if (!request.auth) throw new AppError('ERR_UNAUTHENTICATED');
      return request.auth.user as SessionUser;
    },
    async require(request, permission) {
      if (!request.auth || !can(request.auth.user, permission, core.permissions)) throw new AppError('ERR_NO_PERMISSION');
    },
  };
  const cachePrefix = `${core.config.redisPrefix}:cache:${id}:`;
  return {
    id,
    log: core.log.child({ plugin: id }),
    config: {
      apiPrefix: core.config.apiPrefix,
      publicUrl: core.config.publicUrl,
      env: core.config.env,
      role: core.config.role,
      outboundHttpAllow: core.config.outboundHttpAllow,
      ...featureConfig,
    },
    db: { knex: core.knex, transaction: (fn) => core.knex.transaction(fn) },
    plans: core.plans,
    access,
    realtime: core.realtime,
    jobs: { enqueue: (name, data, options) => core.jobs.enqueue(id, name, data, options) },
    events: core.events,
    settings: core.settings,
    storage: core.storage,
    cache: {
      get: (key) => core.redis.get(cachePrefix + key),
      async set(key, value, ttlMs) {
        await (ttlMs ? core.redis.set(cachePrefix + key, value, { PX: ttlMs }) : core.redis.set(cachePrefix + key, value));
      },
      async del(key) {
        await core.redis.del(cachePrefix + key);
      },
      async increment(key, windowMs) {
        // one round trip: the count, the window started by the first hit only (NX), what is left of it
        const [count, , remainingMs] = (await core.redis
          .multi()
          .incr(cachePrefix + key)
          .pExpire(cachePrefix + key, windowMs, 'NX')
          .pTTL(cachePrefix + key)
          .exec()) as [number, unknown, number];
        return { count, remainingMs: Math.max(0, remainingMs) };
      },
    },
    broadcast: {
      publish: (topic, payload) => core.broadcast.publish(id, topic, payload),
      subscribe: (topic, listener) => core.broadcast.subscribe(id, topic, listener),
    },
    services: core.services,
    session: {
      company: async (companyId) => {
        const company = await core.sessions.company(companyId);
        return company ? { status: company.status, dueDate: company.dueDate } : null;
      },
      invalidateUser: (userId) => core.sessions.invalidateUser(userId),
      invalidateCompany: (companyId) => core.sessions.invalidateCompany(companyId),
      endUserSessions: (userId) => new AuthService(core).revokeUserSessions(userId, 'password-changed'),
    },
    passwords: { hash: (password) => hashPassword(password, core.config.passwordHashCost) },
    tenancy: createTenancyService(core.knex, core.config.passwordHashCost),
    mail: mailService(core.mailer),
    metrics: core.metrics?.service() ?? DISABLED_METRICS,
  };
}
