import type { ScheduleStatus } from '../shared/schedules';

/** A reference to another entity: id and name. */
export interface Ref {
  id: number;
  name: string;
}

/** A schedule as the API shows it (docs/product/automation.md#schedules). */
export interface Schedule {
  id: number;
  body: string;
  sendAt: string;
  dueAt: string;
  contactId: number;
  contact: { id: number; name: string; number: string };
  userId: number | null;
  ticketUserId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  intervalo: number;
  valorIntervalo: number;
  enviarQuantasVezes: number;
  tipoDias: number;
  openTicket: 'enabled' | 'disabled';
  statusTicket: 'closed' | 'pending' | 'open';
  assinar: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  status: ScheduleStatus;
  sentAt: string | null;
  sentCount: number;
  ticketId: number | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The dialog's fields as `POST /schedules` and `PUT /schedules/:id` take them. */
export interface ScheduleBody {
  body: string;
  sendAt: string;
  contactId: number;
  intervalo: number;
  valorIntervalo: number;
  enviarQuantasVezes: number;
  tipoDias: number;
  openTicket: 'enabled' | 'disabled';
  statusTicket: 'closed' | 'pending' | 'open';
  ticketUserId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  assinar: boolean;
}

/** A contact as the dialog's search finds it. */
export interface ContactChoice {
  id: number;
  name: string;
  number: string | null;
}
