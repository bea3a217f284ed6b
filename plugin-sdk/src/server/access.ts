import type { ApiKeyScope } from '../shared/api-keys';
import type { Permission } from '../shared/permissions';
import type { AnyPlanFlag } from '../shared/plan-flags';

/**
 * Who may call a route. Every route declares one in `config.access`; the core enforces it in one hook
 * and a test fails for any route without it.
 * - `public`: anyone, no session.
 * - `authenticated`: any user with a valid session of an active, paid-up company.
 * - `admin`: profile admin (or a super user).
 * - `super`: super users only; the route may cross companies explicitly.
 * - `{ permission }`: holders of the permission (docs/product/roles-and-permissions.md#roles-in-the-inbox, with the profile-user exceptions).
 */
export type RouteAccess = 'public' | 'authenticated' | 'admin' | 'super' | { permission: Permission };

/** The access-related part of a route's `config`. */
export interface RouteAccessConfig {
  access: RouteAccess;
  /** The plan flag the company must have. Set automatically on every route of a plan-gated plugin. */
  planFlag?: AnyPlanFlag;
  /** Lets a company with an expired subscription through (billing and session routes). */
  allowExpired?: boolean;
  /**
   * The scope an API key needs to call this route (docs/api.md "API keys"). A route without one refuses
   * every key (403 ERR_API_KEY_SCOPE): keys reach only what is declared for them.
   */
  apiKeyScope?: ApiKeyScope;
  /**
   * For the test walkers: which fixture entity each path parameter refers to, when the parameter name
   * alone doesn't say (`:id`). Example: `{ id: 'ticket' }`. `'shared:plan'` names an entity that is not
   * company A's own data (B may read it); `'=open'` gives a literal value for a parameter that is no id.
   * See docs/plugin-authoring.md, "Test walkers".
   */
  fixtureParams?: Record<string, string>;
  /**
   * For the test walkers: the body to send instead of one generated from the body schema, or a function
   * of company A's fixture ids returning it. Only for routes a generated body can't exercise.
   */
  fixtureBody?: unknown;
  /** For the test walkers: the query string to send instead of one generated from the schema (same rules). */
  fixtureQuery?: Record<string, unknown> | ((idsA: Record<string, number | string>) => Record<string, unknown>);
}

declare module 'fastify' {
  interface FastifyContextConfig extends Partial<RouteAccessConfig> {}
}

/** Shorthands for `config`: `{ config: access.admin }`. */
export const access = {
  public: { access: 'public' },
  authenticated: { access: 'authenticated' },
  admin: { access: 'admin' },
  super: { access: 'super' },
  permission: (permission: Permission) => ({ access: { permission } }),
} as const satisfies Record<string, RouteAccessConfig | ((p: Permission) => RouteAccessConfig)>;
