import { TenantModel } from '@balcao/plugin-sdk/server';
import type { ScheduleStatus } from '../../shared/schedules';

/** A scheduled message to a contact (docs/product/automation.md#schedules). */
export class Schedule extends TenantModel {
  static override tableName = 'schedules';
  declare id: number;
  declare body: string;
  declare sendAt: Date;
  declare dueAt: Date;
  declare contactId: number;
  declare userId: number | null;
  declare ticketUserId: number | null;
  declare queueId: number | null;
  declare whatsappId: number | null;
  declare intervalo: number;
  declare valorIntervalo: number;
  declare enviarQuantasVezes: number;
  declare tipoDias: number;
  declare openTicket: 'enabled' | 'disabled';
  declare statusTicket: 'closed' | 'pending' | 'open';
  declare assinar: boolean;
  declare mediaPath: string | null;
  declare mediaName: string | null;
  declare mediaMimetype: string | null;
  declare status: ScheduleStatus;
  declare sentAt: Date | null;
  declare sentCount: number;
  /** The first send time of the current plan: occurrences are counted from it. */
  declare anchorAt: Date | null;
  declare ticketId: number | null;
  declare messageId: number | null;
  declare attempts: number;
  declare error: string | null;
  declare leaseUntil: Date | null;
  declare leaseToken: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
