/**
 * Test helpers of the messages tests: users, queues, contacts and tickets written straight to the
 * database in a company, API calls, multipart bodies and a socket client. Not a test file itself.
 */
import { randomBytes } from 'node:crypto';
import type { PluginContext } from '@balcao/plugin-sdk/server';
import type { TestApp } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import type { Message, TicketStatus } from '../../shared/types';
import { inboxState } from '../services/inbox-state';

let sequence = 0;

export interface KitUser {
  id: number;
  name: string;
  token: string;
}

export class MessageKit {
  readonly knex: Knex;
  readonly ctx: PluginContext;
  private passwordHash: string | null = null;

  constructor(readonly t: TestApp) {
    this.knex = t.balcao.core.knex;
    const inbox = t.balcao.plugins.find((plugin) => plugin.definition.id === 'inbox');
    if (!inbox) throw new Error('the inbox module is not loaded');
    this.ctx = inbox.ctx;
  }

  /** A user of the company (profile user unless told), in the given queues, logged in. */
  async user(companyId: number, fields: { profile?: 'admin' | 'user'; queueIds?: number[]; name?: string } = {}) {
    this.passwordHash ??= (
      (await this.knex('users').whereRaw('lower(email) = ?', ['admin@acme.test']).first('passwordHash')) as {
        passwordHash: string;
      }
    ).passwordHash;
    const email = `m-${randomBytes(5).toString('hex')}@messages.test`;
    const name = fields.name ?? `Agent ${email.slice(2, 7)}`;
    const [row] = await this.knex('users')
      .insert({ companyId, name, email, passwordHash: this.passwordHash, profile: fields.profile ?? 'user' })
      .returning('id');
    if (fields.queueIds?.length) {
      await this.knex('userQueues').insert(fields.queueIds.map((queueId) => ({ companyId, userId: row.id, queueId })));
    }
    inboxState(this.ctx).realtime.invalidate(companyId);
    const session = await this.t.login(email);
    return { id: row.id as number, name, token: session.token } satisfies KitUser;
  }

  async queue(companyId: number): Promise<number> {
    const [row] = await this.knex('queues')
      .insert({ companyId, name: `Queue ${randomBytes(3).toString('hex')}`, color: '#112233' })
      .returning('id');
    return row.id;
  }

  async contact(companyId: number, fields: { name?: string; isGroup?: boolean } = {}): Promise<number> {
    sequence += 1;
    const [row] = await this.knex('contacts')
      .insert({
        companyId,
        name: fields.name ?? `Contact ${sequence}`,
        number: `5521${String(Date.now() % 1e6).padStart(6, '0')}${String(sequence).padStart(3, '0')}`,
        isGroup: fields.isGroup ?? false,
      })
      .returning('id');
    return row.id;
  }

  /** A ticket written straight to the table (a new contact of its own unless given). */
  async ticket(
    companyId: number,
    fields: {
      contactId?: number;
      status?: TicketStatus;
      userId?: number | null;
      queueId?: number | null;
      whatsappId?: number | null;
      isGroup?: boolean;
      unreadMessages?: number;
    } = {},
  ): Promise<{ id: number; uuid: string; contactId: number }> {
    const contactId = fields.contactId ?? (await this.contact(companyId));
    const [row] = await this.knex('tickets')
      .insert({
        companyId,
        contactId,
        status: fields.status ?? 'open',
        userId: fields.userId ?? null,
        queueId: fields.queueId ?? null,
        whatsappId: fields.whatsappId === undefined ? 1 : fields.whatsappId,
        isGroup: fields.isGroup ?? false,
        unreadMessages: fields.unreadMessages ?? 0,
      })
      .returning(['id', 'uuid']);
    return { id: row.id, uuid: row.uuid, contactId };
  }

  /** Messages written straight to the table, a second apart, oldest first. */
  async messages(
    companyId: number,
    ticketId: number,
    count: number,
    fields: { fromMe?: boolean; read?: boolean; isDeleted?: boolean; start?: Date; channelIds?: boolean } = {},
  ): Promise<number[]> {
    const start = (fields.start ?? new Date(Date.now() - 86_400_000)).getTime();
    const rows = Array.from({ length: count }, (_, index) => ({
      companyId,
      ticketId,
      body: `message ${index + 1}`,
      fromMe: fields.fromMe ?? false,
      read: fields.read ?? true,
      isDeleted: fields.isDeleted ?? false,
      whatsappId: 1,
      channelMessageId: fields.channelIds ? `seed-${ticketId}-${index}-${randomBytes(3).toString('hex')}` : null,
      createdAt: new Date(start + index * 1_000),
      updatedAt: new Date(start + index * 1_000),
    }));
    const inserted = await this.knex('messages').insert(rows).returning('id');
    return inserted.map((row: { id: string | number }) => Number(row.id));
  }

  async messageRow(id: number): Promise<Record<string, unknown>> {
    return (await this.knex('messages').where({ id }).first()) as Record<string, unknown>;
  }

  async ticketRow(id: number): Promise<Record<string, unknown>> {
    return (await this.knex('tickets').where({ id }).first()) as Record<string, unknown>;
  }

  /** Calls the API as a user; `payload` is JSON unless a multipart body is given. */
  async call<T = unknown>(
    user: { token: string },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await this.t.inject({
      method,
      url: `/api${url}`,
      token: user.token,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: (response.body ? response.json() : null) as T };
  }

  /** A multipart POST (fields and files), as a browser's FormData sends it. */
  async multipart<T = unknown>(
    user: { token: string },
    url: string,
    fields: Record<string, string>,
    files: Array<{ field?: string; name: string; type: string; data: Buffer }>,
  ): Promise<{ status: number; body: T }> {
    const boundary = `----kit${randomBytes(8).toString('hex')}`;
    const chunks: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
    for (const file of files) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'medias'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
        ),
        file.data,
        Buffer.from('\r\n'),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const response = await this.t.inject({
      method: 'POST',
      url: `/api${url}`,
      token: user.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat(chunks),
    });
    return { status: response.statusCode, body: (response.body ? response.json() : null) as T };
  }

  /** Waits until a message's delivery is no longer pending; returns its row. */
  async settled(id: number, timeoutMs = 8_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await this.messageRow(id);
      if (row.sendStatus !== 'pending') return row;
      if (Date.now() > deadline) throw new Error(`message ${id} still pending`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Sample files: the first bytes of each kind, enough for content detection. */
export const SAMPLES = {
  png: Buffer.concat([
    Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f3f1d70000000049454e44ae426082',
      'hex',
    ),
  ]),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  csv: Buffer.from('name,number\nAna,5511999990000\n'),
  exe: Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000', 'hex'), Buffer.alloc(200, 1)]),
  html: Buffer.from('<html><script>alert(1)</script></html>'),
};

/** The messages of a send answer. */
export type SendAnswer = { messages: Message[] };
