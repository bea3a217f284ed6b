/**
 * Helpers of the internal chat's server tests: a test app, Acme's admin and agent and a third Acme user who
 * is in no chat, and a shortcut to the API. Not a test file.
 */
import { createTestApp, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';

export interface ChatKit {
  t: TestApp;
  knex: Knex;
  companyId: number;
  admin: TestSession & { id: number };
  agent: TestSession & { id: number };
  /** An Acme user outside every chat the tests make (unless a test adds them). */
  outsider: TestSession & { id: number };
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes
  api(session: TestSession, method: string, url: string, payload?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function chatKit(): Promise<ChatKit> {
  const t = await createTestApp();
  const knex = t.balcao.core.knex;
  const companyId = t.demo.companies.acme;
  const agentRow = (await knex('users').where({ id: t.demo.users.acmeAgent }).first('passwordHash')) as { passwordHash: string };
  // the demo password, so the outsider logs in as the others do
  const [outsiderRow] = (await knex('users')
    .insert({ companyId, name: 'Olga Outra', email: 'outsider@acme.test', passwordHash: agentRow.passwordHash, profile: 'user' })
    .returning('id')) as Array<{ id: number }>;
  const admin = { ...(await t.login('admin@acme.test')), id: t.demo.users.acmeAdmin };
  const agent = { ...(await t.login('agent@acme.test')), id: t.demo.users.acmeAgent };
  const outsider = { ...(await t.login('outsider@acme.test')), id: (outsiderRow as { id: number }).id };
  const api = async (session: TestSession, method: string, url: string, payload?: unknown) => {
    const res = await t.inject({
      method: method as 'GET',
      url: `/api${url}`,
      token: session.token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  return { t, knex, companyId, admin, agent, outsider, api, close: () => t.close() };
}
