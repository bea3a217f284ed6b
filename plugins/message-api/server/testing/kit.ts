/**
 * Helpers of the message API's server tests: a test app with the echo channel (testing/echo-channel) and
 * an echo connection of Acme with a known token. Not a test file.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp, type TestAppOptions } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';

export const ECHO_PLUGIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'echo-channel');
export const PLUGIN_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface MessageApiKit {
  t: TestApp;
  knex: Knex;
  companyId: number;
  /** Acme's echo connection and its token. */
  whatsappId: number;
  token: string;
  close(): Promise<void>;
}

let connections = 0;

/** A new echo connection of a company, with a fresh 30-character token. */
export async function echoConnection(knex: Knex, companyId: number): Promise<{ id: number; token: string }> {
  connections += 1;
  const token = `echo${process.pid}${Date.now()}${connections}`.padEnd(30, 'x').slice(0, 30);
  const [row] = await knex('whatsapps')
    .insert({ companyId, name: `Echo ${connections}`, channel: 'echo', status: 'CONNECTED', token })
    .returning('id');
  return { id: row.id as number, token };
}

export async function messageApiKit(options: TestAppOptions = {}): Promise<MessageApiKit> {
  const t = await createTestApp({ ...options, plugins: [ECHO_PLUGIN, ...(options.plugins ?? [])] });
  const knex = t.balcao.core.knex;
  const companyId = t.demo.companies.acme as number;
  const connection = await echoConnection(knex, companyId);
  return { t, knex, companyId, whatsappId: connection.id, token: connection.token, close: () => t.close() };
}
