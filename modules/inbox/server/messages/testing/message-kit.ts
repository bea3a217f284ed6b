/**
 * Test helpers of the messages tests (on top of the tickets kit). Not a test file itself.
 */
import { randomBytes } from 'node:crypto';
import type { Message } from '../../../shared/types';
import { type TicketFields, TicketKit } from '../../tickets/testing/ticket-kit';

export type { KitUser } from '../../tickets/testing/ticket-kit';

/**
 * The tickets kit, with the messages tests' defaults (tickets open on connection 1) and their own
 * helpers: messages written straight to the table, multipart bodies, delivery waits.
 */
export class MessageKit extends TicketKit {
  /** A ticket written straight to the table: open on connection 1 unless told (a new contact unless given). */
  override ticket(
    companyId: number,
    fields: Partial<TicketFields> = {},
  ): Promise<{ id: number; uuid: string; contactId: number }> {
    return super.ticket(companyId, {
      ...fields,
      status: fields.status ?? 'open',
      whatsappId: fields.whatsappId === undefined ? 1 : fields.whatsappId,
    });
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
