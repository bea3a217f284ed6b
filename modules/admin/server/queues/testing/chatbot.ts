import type { InboundMessage, InboxService } from '@balcao/plugin-sdk/server';
import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/**
 * The chatbot's tests' app and helpers: real inbound messages through the inbox's channel contract
 * (`receive`, as a channel driver calls it; a recording driver takes what reaches the channel). The
 * inbox's own fixture driver lives in its folder, which a feature may not import.
 */
export let t: TestApp;
export let inbox: InboxService;
export let acme: number;
export let admin: number;
export let agent: number;
/** The connection the contacts write to (a connection id; the wire calls it whatsappId). */
export const CONNECTION_ID = 501;
/** What the recording driver was asked to send. */
export const sent: string[] = [];
/** The files the channel was handed, with their bytes as the driver read them from storage. */
export const sentFiles: Array<{ fileName: string; bytes: Buffer | null }> = [];

async function readAll(stream: NodeJS.ReadableStream | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}
let inboundSeq = 0;

/** An inbound WhatsApp text as a driver reports it. */
export function inbound(
  number: string,
  body: string,
  extra: { fromMe?: boolean; group?: InboundMessage['group'] } = {},
): InboundMessage {
  inboundSeq += 1;
  return {
    companyId: acme,
    whatsappId: CONNECTION_ID,
    channel: 'whatsapp',
    contact: { identifiers: [`${number}@s.whatsapp.net`], number, name: `Contato ${number.slice(-4)}` },
    ...(extra.group ? { group: extra.group } : {}),
    message: { id: `bot-test-${Date.now().toString(36)}-${inboundSeq}`, body, fromMe: extra.fromMe === true },
  };
}
let seq = 0;
/** A phone number no other test uses: every test talks to its own contact. */
export const newNumber = () => {
  seq += 1;
  return `55219${String(Date.now() % 1e5).padStart(5, '0')}${String(seq).padStart(3, '0')}`;
};

/**
 * Starts the test app for the calling test file (once) and brings Acme back to a known start before each
 * of its tests: no tickets, no queues, the company's greeting, and every setting the bot reads at its
 * default.
 */
export function useChatbotApp(): void {
  beforeAll(async () => {
    // one "minute" of tempoRoteador lasts 100 ms here, so the rotation's timing is observable
    process.env.ADMIN_ROTATION_MINUTE_MS = '100';
    t = await createTestApp();
    inbox = t.balcao.core.services.use('inbox');
    inbox.registerDriver('whatsapp', {
      async send(_target, message) {
        sent.push(message.body);
        if (message.media) sentFiles.push({ fileName: message.media.fileName, bytes: await readAll(await message.media.open()) });
        return { channelMessageId: `out-${message.messageId}` };
      },
    });
    acme = t.demo.companies.acme;
    admin = t.demo.users.acmeAdmin;
    agent = t.demo.users.acmeAgent;
  });
  afterAll(async () => {
    delete process.env.ADMIN_ROTATION_MINUTE_MS;
    await t?.close();
  });
  beforeEach(async () => {
    await knex()('tickets').where({ companyId: acme }).delete();
    await knex()('queues').where({ companyId: acme }).delete();
    await knex()('companyServiceHours').where({ companyId: acme }).delete();
    await knex()('companyServiceHours').insert({ companyId: acme, greetingMessage: 'Olá! Escolha um setor:' });
    for (const [key, value] of Object.entries({
      scheduleType: 'disabled',
      userRandom: 'disabled',
      sendQueuePosition: 'disabled',
      sendGreetingMessageOneQueues: 'enabled',
      enableLGPD: 'disabled',
      lgpdConsent: 'disabled',
      lgpdMessage: '',
      lgpdLink: '',
      chatbotWaitingMessage: '',
    })) {
      await settings(key, value);
    }
  });
}

export const knex = () => t.balcao.core.knex;
export const settings = (key: string, value: string) => t.balcao.core.settings.set(acme, key, value);

export interface OptionSeed {
  name: string;
  greetingMessage?: string;
  queueType?: string;
  optQueueId?: number;
  optUserId?: number;
  optFileId?: number;
  closeTicket?: boolean;
  options?: OptionSeed[];
}

/** A queue of Acme with its options (written as the administration stores them) and members. */
export async function queue(
  name: string,
  fields: Record<string, unknown> = {},
  options: OptionSeed[] = [],
  members: number[] = [],
): Promise<number> {
  seq += 1;
  const [row] = await knex()('queues')
    .insert({
      companyId: acme,
      name,
      color: `#${seq.toString(16).padStart(6, '0')}`,
      greetingMessage: `Fila ${name}`,
      ...fields,
    })
    .returning('id');
  const insert = async (list: OptionSeed[], parent: number | null) => {
    for (const [index, option] of list.entries()) {
      const [created] = await knex()('chatbots')
        .insert({
          companyId: acme,
          queueId: row.id,
          chatbotId: parent,
          name: option.name,
          greetingMessage: option.greetingMessage ?? '',
          queueType: option.queueType ?? 'text',
          optQueueId: option.optQueueId ?? null,
          optUserId: option.optUserId ?? null,
          optFileId: option.optFileId ?? null,
          closeTicket: option.closeTicket ?? false,
          orderOption: index,
        })
        .returning('id');
      await insert(option.options ?? [], created.id);
    }
  };
  await insert(options, null);
  for (const userId of members) await knex()('userQueues').insert({ companyId: acme, userId, queueId: row.id });
  return row.id;
}

/** A contact talking to the company: each `say` is one inbound message; answers the bot's replies to it. */
export function contact(overrides: { disableBot?: boolean } = {}) {
  const number = newNumber();
  let ticketId = 0;
  let seen = 0;
  return {
    get ticketId() {
      return ticketId;
    },
    async say(body: string, extra: Parameters<typeof inbound>[2] = {}): Promise<string[]> {
      const result = await inbox.receive(inbound(number, body, extra));
      ticketId = result.ticketId;
      if (overrides.disableBot) await knex()('contacts').where({ id: result.contactId }).update({ disableBot: true });
      const replies = await knex()('messages')
        .where({ ticketId, fromMe: true })
        .where('id', '>', seen)
        .whereNot('id', result.messageId)
        .orderBy('id');
      seen = Math.max(seen, ...replies.map((reply: { id: string }) => Number(reply.id)));
      return replies.map((reply: { body: string }) => reply.body);
    },
    ticket: () => knex()('tickets').where({ id: ticketId }).first(),
  };
}

/** What `work` answers, and the SQL of the statements matching `pattern` the app's knex ran meanwhile. */
export async function statementsDuring<T>(pattern: RegExp, work: () => Promise<T>): Promise<{ value: T; statements: string[] }> {
  const statements: string[] = [];
  const onQuery = (query: { sql: string }) => {
    if (pattern.test(query.sql)) statements.push(query.sql);
  };
  knex().on('query', onQuery);
  try {
    return { value: await work(), statements };
  } finally {
    knex().off('query', onQuery);
  }
}
