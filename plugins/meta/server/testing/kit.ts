/**
 * Helpers of the Meta channels' tests: the Graph stand-in started first and named in the configuration
 * (META_GRAPH_URL and the app's settings, read by createTestApp from the environment), an app whose
 * outbound client may reach it on loopback, and the calls the tests repeat. Our driver code is the real
 * one; only the Graph is the stand-in. Not a test file itself.
 */
import { PLAN_FLAGS } from '@balcao/plugin-sdk/server';
import {
  connectSocket,
  createTestApp,
  DEFAULT_COMPANY_SETTINGS,
  nextEvent,
  type TestApp,
  type TestAppOptions,
} from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { GraphStandIn } from './graph-stand-in';

export interface MetaTestApp {
  t: TestApp;
  graph: GraphStandIn;
  url: string;
  api: string;
  close(): Promise<void>;
}

/** The Meta app's settings that point a server at a running stand-in. */
export function standInEnvironment(graph: GraphStandIn): Record<string, string> {
  return {
    META_GRAPH_URL: graph.url,
    META_APP_ID: graph.app.id,
    META_APP_SECRET: graph.app.secret,
    META_VERIFY_TOKEN: graph.app.verifyToken,
    META_RETRY_BASE_MS: '50',
    META_LOGIN_SDK_URL: `${graph.url}/sdk.js`,
  };
}

/** A stand-in and a listening app that talks to it (`config`: more of the app's settings, e.g. `hostDist`). */
export async function startMetaApp(config: TestAppOptions['config'] = {}): Promise<MetaTestApp> {
  const graph = new GraphStandIn();
  await graph.start();
  const saved = { ...process.env };
  Object.assign(process.env, standInEnvironment(graph));
  let t: TestApp;
  try {
    t = await createTestApp({ config: { outboundHttpAllow: ['127.0.0.1/32'], ...config } });
  } finally {
    for (const key of Object.keys(standInEnvironment(graph))) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
  const url = await t.listen();
  return {
    t,
    graph,
    url,
    api: `${url}${t.config.apiPrefix}`,
    async close() {
      await t.close();
      await graph.close();
    },
  };
}

/**
 * A company of its own on a plan of every flag (or those `flags` turns off), with its admin logged in:
 * a second tenant besides the demo's Acme.
 */
export async function companyWithPlan(
  t: TestApp,
  flags: Record<string, boolean> = {},
): Promise<{ companyId: number; token: string }> {
  const knex = t.balcao.core.knex;
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const [plan] = await knex('plans')
    .insert({
      name: `Meta plan ${tag}`,
      users: 10,
      connections: 10,
      queues: 10,
      amount: 1,
      isPublic: false,
      ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, flags[flag] ?? true])),
    })
    .returning('id');
  const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const [company] = await knex('companies')
    .insert({ name: `Meta ${tag}`, email: `meta-${tag}@test.test`, planId: plan.id, dueDate: due, status: true })
    .returning('id');
  await knex('settings').insert(
    Object.entries(DEFAULT_COMPANY_SETTINGS).map(([key, value]) => ({ companyId: company.id, key, value })),
  );
  const hash = (await knex('users').where({ email: 'admin@acme.test' }).first('passwordHash')).passwordHash;
  const email = `meta-${tag}@test.test`;
  await knex('users').insert({ companyId: company.id, name: `Admin ${tag}`, email, passwordHash: hash, profile: 'admin' });
  const session = await t.login(email);
  return { companyId: company.id, token: session.token };
}

export type AppMessage = {
  action: string;
  message: {
    id: number;
    body: string;
    fromMe: boolean;
    ack: number;
    sendStatus: string;
    sendError: string | null;
    mediaType: string;
    mediaUrl: string | null;
    ticketId: number;
    quotedMsgId: number | null;
  };
};

/** Waits for the next `appMessage` event of the company matching `predicate`. */
export function nextMessage(socket: Socket, companyId: number, predicate: (event: AppMessage) => boolean, timeoutMs = 10_000) {
  return nextEvent<AppMessage>(socket, `company-${companyId}-appMessage`, predicate, timeoutMs);
}

export { connectSocket };

/** A WhatsApp Cloud webhook delivery of messages to `phoneNumberId`. */
export function whatsappDelivery(phoneNumberId: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '0',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '5511', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** A text message of a WhatsApp Cloud delivery. */
export function whatsappText(from: string, id: string, body: string, extra: Record<string, unknown> = {}) {
  return { from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body }, ...extra };
}
