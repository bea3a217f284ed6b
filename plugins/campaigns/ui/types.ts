import type { CampaignStatus, CampaignTicketStatus } from '../shared/campaigns';

/** A reference to another entity: id and name. */
export interface Ref {
  id: number;
  name: string;
}

export interface CampaignReport {
  recipients: number;
  valid: number;
  delivered: number;
  confirmationRequested: number;
  confirmed: number;
  failed: number;
  optedOut: number;
  invalid: number;
  pending: number;
}

/** A campaign as the API shows it (docs/product/automation.md#entities). */
export interface Campaign {
  id: number;
  name: string;
  status: CampaignStatus;
  confirmation: boolean;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  scheduledAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
  contactListId: number | null;
  contactList: Ref | null;
  tagListId: number | null;
  tagList: Ref | null;
  whatsappId: number | null;
  whatsapp: Ref | null;
  userId: number | null;
  user: Ref | null;
  queueId: number | null;
  queue: Ref | null;
  statusTicket: CampaignTicketStatus;
  openTicket: 'enabled' | 'disabled';
  mediaName: string | null;
  mediaUrl: string | null;
  report: CampaignReport;
  createdAt: string;
  updatedAt: string;
}

/** `POST /campaigns`, `PUT /campaigns/:id`. */
export interface CampaignBody {
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  confirmation: boolean;
  contactListId: number | null;
  tagListId: number | null;
  whatsappId: number;
  userId: number | null;
  queueId: number | null;
  statusTicket: CampaignTicketStatus;
  openTicket: 'enabled' | 'disabled';
  scheduledAt: string | null;
}

export interface ContactList {
  id: number;
  name: string;
  whatsappId: number | null;
  contactsCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ContactListItem {
  id: number;
  name: string;
  number: string;
  email: string | null;
  isWhatsappValid: boolean | null;
  companyId: number;
  contactListId: number;
}

export interface ImportState {
  id: number;
  contactListId: number;
  fileName: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  rows: number;
  added: number;
  updated: number;
  refused: number;
  refusedRows: Array<{ row: number; reason: string }>;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** A connection as `GET /whatsapp` lists it (the fields the dialog shows). */
export interface Connection {
  id: number;
  name: string;
  status: string;
  channel: string;
}

export interface Paged<T> {
  records: T[];
  count: number;
  hasMore: boolean;
}
