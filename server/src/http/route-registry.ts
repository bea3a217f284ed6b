import type { RouteAccessConfig } from '@balcao/plugin-sdk/server';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';

/** Extra route config the loader stamps on every route of a feature. */
export interface StampedConfig extends Partial<RouteAccessConfig> {
  /** The feature that registered the route (`core` for the core's own). */
  owner?: string;
  /** Infrastructure routes (static files, API docs): public, no data, not walked by the API suites. */
  infra?: boolean;
}

/** One registered route, as the walkers and the OpenAPI docs see it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  readonly owner: string;
  readonly schema: FastifySchema | undefined;
  readonly config: StampedConfig;
}

/**
 * Records every route as it is registered (including those of features, through the hook's
 * inheritance by child contexts), so tests can walk the whole route table. It keeps the route options
 * object itself: feature contexts stamp `owner` and `planFlag` on it after this hook has run.
 */
export class RouteRegistry {
  readonly routes: RegisteredRoute[] = [];

  install(app: FastifyInstance): void {
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD') continue; // Fastify's automatic HEAD twins of GET routes
        this.routes.push({
          method,
          url: route.url,
          get owner() {
            return (route.config as StampedConfig | undefined)?.owner ?? 'core';
          },
          get schema() {
            return route.schema;
          },
          get config() {
            return (route.config as StampedConfig | undefined) ?? {};
          },
        });
      }
    });
  }
}
