import { TenantModel } from '@balcao/plugin-sdk/server';
import type { CampaignStatus, CampaignTicketStatus } from '../../shared/campaigns';

/** A campaign (docs/product/automation.md#entities). */
export class Campaign extends TenantModel {
  static override tableName = 'campaigns';
  declare id: number;
  declare name: string;
  declare status: CampaignStatus;
  declare confirmation: boolean;
  declare message1: string;
  declare message2: string;
  declare message3: string;
  declare message4: string;
  declare message5: string;
  declare confirmationMessage1: string;
  declare confirmationMessage2: string;
  declare confirmationMessage3: string;
  declare confirmationMessage4: string;
  declare confirmationMessage5: string;
  declare scheduledAt: Date | null;
  declare startedAt: Date | null;
  declare completedAt: Date | null;
  declare contactListId: number | null;
  declare tagListId: number | null;
  declare whatsappId: number | null;
  declare userId: number | null;
  declare queueId: number | null;
  declare statusTicket: CampaignTicketStatus;
  declare openTicket: 'enabled' | 'disabled';
  declare mediaPath: string | null;
  declare mediaName: string | null;
  declare mediaMimetype: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** One recipient of a running campaign: what the dispatcher claims, sends and records. */
export class CampaignShipping extends TenantModel {
  static override tableName = 'campaignShippings';
  declare id: number;
  declare campaignId: number;
  declare number: string;
  declare name: string;
  declare email: string | null;
  declare variant: number;
  declare state: 'queued' | 'awaiting' | 'delivered' | 'failed' | 'skipped';
  declare reason: string | null;
  declare attempts: number;
  declare dueAt: Date;
  declare leaseUntil: Date | null;
  declare leaseToken: string | null;
  declare confirmationMessageId: number | null;
  declare messageId: number | null;
  declare channelMessageId: string | null;
  declare contactId: number | null;
  declare ticketId: number | null;
  declare confirmationRequestedAt: Date | null;
  declare confirmedAt: Date | null;
  declare deliveredAt: Date | null;
  declare createdAt: Date;
}
