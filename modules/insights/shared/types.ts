/**
 * The insights' JSON shapes, as the HTTP API answers them and the realtime events carry them; shared by the
 * server's schemas and the UI.
 */

/** `GET /dashboard` counters (docs/product/tickets-and-inbox.md#entities "Dashboard counters", plus the NPS distribution and average). */
export interface DashboardCounters {
  /** Tickets in attendance now (open), among those started by the range's end. */
  supportHappening: number;
  /** Tickets waiting now (pending, or waiting for the LGPD consent). */
  supportPending: number;
  /** Cycles closed in the range. */
  supportFinished: number;
  /** Group tickets in attendance now. */
  supportGroups: number;
  /** New contacts: contacts whose first ticket started in the range. */
  leads: number;
  /** Minutes from acceptance to resolution, averaged over the cycles resolved in the range. */
  avgSupportTime: number;
  /** Minutes from a cycle's start to its first acceptance, averaged over the acceptances in the range. */
  avgWaitTime: number;
  /** Cycles started in the range by an agent. */
  activeTickets: number;
  /** Cycles started in the range by the contact. */
  passiveTickets: number;
  /** % promoters − % detractors over the ratings of the cycles closed in the range (−100 to 100). */
  npsScore: number;
  npsPromotersPerc: number;
  npsPassivePerc: number;
  npsDetractorsPerc: number;
  /** Cycles started in the range (new tickets and reopened ones). */
  tickets: number;
  /** Tickets waiting now for the contact's rating (nps). */
  waitRating: number;
  /** Cycles closed in the range without a rating. */
  withoutRating: number;
  /** Cycles closed in the range with a rating. */
  withRating: number;
  /** withRating as a % of the cycles closed in the range. */
  percRating: number;
  /** How many ratings of each note, 0 to 10. */
  npsDistribution: number[];
  /** The average note (0 to 10) of those ratings; 0 without any. */
  avgRating: number;
}

/** One row of the attendants table (docs/product/tickets-and-inbox.md#entities "Attendant rows"). */
export interface DashboardAttendant {
  id: number;
  name: string;
  /** Average note (0 to 10) of the ratings of the cycles the agent closed in the range. */
  rating: number;
  countRating: number;
  /** Cycles the agent closed in the range. */
  tickets: number;
  /** Minutes the tickets the agent accepted first had waited. */
  avgWaitTime: number;
  /** Minutes from acceptance to resolution of the cycles the agent resolved. */
  avgSupportTime: number;
  online: boolean;
}

export interface DashboardResponse {
  counters: DashboardCounters;
  attendants: DashboardAttendant[];
  /** The range read, as calendar days of `timezone`. */
  range: { from: string; to: string; timezone: string };
}

export interface TicketsDayPoint {
  /** `YYYY-MM-DD` (a range of days) … */
  date?: string;
  /** … or the hour 0–23 (a single day). */
  hour?: number;
  /** Cycles started. */
  total: number;
  /** Cycles closed. */
  finished: number;
}

export interface TicketsDayResponse {
  count: number;
  data: TicketsDayPoint[];
}

export interface TicketsUsersResponse {
  data: Array<{ userId: number; name: string; tickets: number }>;
}

export const REPORT_STATUSES = ['pending', 'open', 'closed', 'group', 'lgpd', 'nps'] as const;
export const REPORT_SORTS = ['id', 'createdAt', 'closedAt', 'status', 'contactName', 'userName', 'queueName', 'nps'] as const;
export type ReportSort = (typeof REPORT_SORTS)[number];
export const NPS_BANDS = ['promoter', 'passive', 'detractor'] as const;
export type NpsBand = (typeof NPS_BANDS)[number];

/** A row of the ticket report (docs/product/administration.md#entities "Report ticket row"). */
export interface ReportTicket {
  id: number;
  uuid: string;
  whatsappName: string | null;
  contactName: string;
  userId: number | null;
  userName: string | null;
  queueName: string | null;
  status: string;
  lastMessage: string;
  createdAt: string;
  closedAt: string | null;
  /** Minutes in attendance (acceptance to resolution, every cycle of the ticket); null when never attended. */
  supportTime: number | null;
  /** The contact's rating, 0 to 10. */
  NPS: number | null;
}

export interface ReportResponse {
  tickets: ReportTicket[];
  totalTickets: { total: number };
}

/** A ticket on the Moments panel. */
export interface MomentTicket {
  id: number;
  uuid: string;
  status: string;
  isGroup: boolean;
  contact: { id: number; name: string; urlPicture: string | null };
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  lastMessage: string;
  /** Since when it waits (its cycle's start) or is attended (its cycle's first acceptance). */
  since: string;
  updatedAt: string;
}

export interface MomentUser {
  id: number;
  name: string;
  profile: 'admin' | 'user';
  online: boolean;
}

/** `company-{id}-moments`: a ticket of the panel changed, or left it. */
export type MomentsEvent = { action: 'update'; ticket: MomentTicket } | { action: 'delete'; ticketId: number };

/** `company-{id}-reportExport` to the user exporting: rows written so far of `total`. */
export interface ReportExportProgress {
  exportId: string;
  written: number;
  total: number;
  done: boolean;
}
