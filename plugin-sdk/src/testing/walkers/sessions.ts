import type { LightMyRequestResponse } from 'fastify';
import type { TestApp, TestInject, TestSession } from '../index';

/** A login the pool can repeat: who, and with which password. */
export interface Login {
  email: string;
  password?: string;
}

const SESSION_ENDED = new Set(['ERR_SESSION_EXPIRED', 'ERR_UNAUTHENTICATED', 'ERR_TOKEN_EXPIRED']);

function errorCode(response: LightMyRequestResponse): string | undefined {
  try {
    const body = response.json() as { error?: unknown };
    return typeof body.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The walkers' sessions by role. A walked route may end the session it was called with (logout, a
 * password change, a takeover): a 401 with a session error makes the pool log that role in again and
 * repeat the request once, so one route can't blind the walk of the others. Logins of one role are
 * serialised, since each login ends the role's previous session.
 */
export class SessionPool<Role extends string> {
  private readonly sessions = new Map<Role, TestSession>();
  private readonly relogins = new Map<Role, Promise<TestSession>>();

  constructor(
    private readonly t: TestApp,
    private readonly logins: Record<Role, Login>,
    initial: Partial<Record<Role, TestSession>> = {},
  ) {
    for (const [role, session] of Object.entries(initial) as Array<[Role, TestSession | undefined]>) {
      if (session) this.sessions.set(role, session);
    }
  }

  /** The role's current session (logging in the first time). */
  async session(role: Role): Promise<TestSession> {
    const current = this.sessions.get(role);
    return current ?? this.relogin(role, undefined);
  }

  private relogin(role: Role, stale: TestSession | undefined): Promise<TestSession> {
    const current = this.sessions.get(role);
    if (current && current !== stale) return Promise.resolve(current);
    let pending = this.relogins.get(role);
    if (!pending) {
      const { email, password } = this.logins[role];
      pending = this.t
        .login(email, password)
        .then((session) => {
          this.sessions.set(role, session);
          return session;
        })
        .finally(() => this.relogins.delete(role));
      this.relogins.set(role, pending);
    }
    return pending;
  }

  /** Calls the app as `role` (or anonymously with null), logging in again once if the session ended. */
  async inject(role: Role | null, request: TestInject): Promise<LightMyRequestResponse> {
    if (role === null) return this.t.inject(request);
    const session = await this.session(role);
    const response = await this.t.inject({ ...request, token: session.token });
    if (response.statusCode !== 401 && response.statusCode !== 403) return response;
    const code = errorCode(response);
    if (!code || !SESSION_ENDED.has(code)) return response;
    const fresh = await this.relogin(role, session);
    return this.t.inject({ ...request, token: fresh.token });
  }
}
