import type { Knex } from 'knex';
import type { TicketLog as TicketLogShape, TicketLogType } from '../../shared/types';
import { TicketLog } from '../models/ticket';

/**
 * Writes one entry of a ticket's log (docs/product/tickets-and-inbox.md#entities Ticket log entry): every transition writes one. Pass the
 * transaction that changes the ticket, so the row and its log entry commit together.
 */
export async function writeTicketLog(
  ticketId: number,
  type: TicketLogType,
  by: { userId?: number | null; queueId?: number | null } = {},
  trx?: Knex.Transaction,
): Promise<void> {
  await TicketLog.query(trx).insert({ ticketId, type, userId: by.userId ?? null, queueId: by.queueId ?? null });
}

/** A ticket's log as `GET /tickets-log/:ticketId` answers it: newest first, with user and queue refs. */
export async function listTicketLogs(knex: Knex, companyId: number, ticketId: number): Promise<TicketLogShape[]> {
  const rows = (await knex('ticketLogs as l')
    .leftJoin('users as u', 'u.id', 'l.userId')
    .leftJoin('queues as q', 'q.id', 'l.queueId')
    .where('l.companyId', companyId)
    .where('l.ticketId', ticketId)
    .orderBy([
      { column: 'l.createdAt', order: 'desc' },
      { column: 'l.id', order: 'desc' },
    ])
    .select(
      'l.id',
      'l.type',
      'l.ticketId',
      'l.createdAt',
      'u.id as userRefId',
      'u.name as userName',
      'q.id as queueRefId',
      'q.name as queueName',
      'q.color as queueColor',
    )) as Array<{
    id: number;
    type: TicketLogType;
    ticketId: number;
    createdAt: Date;
    userRefId: number | null;
    userName: string | null;
    queueRefId: number | null;
    queueName: string | null;
    queueColor: string | null;
  }>;
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    ticketId: row.ticketId,
    user: row.userRefId === null ? null : { id: row.userRefId, name: row.userName ?? '' },
    queue: row.queueRefId === null ? null : { id: row.queueRefId, name: row.queueName ?? '', color: row.queueColor ?? '' },
    createdAt: new Date(row.createdAt).toISOString(),
  }));
}
