import { TenantModel } from '@balcao/plugin-sdk/server';

/** The five kinds of queue integration (docs/product/automation.md#constants-and-limits). */
export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** A queue integration (docs/product/automation.md#entities "Queue integration"). */
export class QueueIntegration extends TenantModel {
  static override tableName = 'queueIntegrations';
  declare id: number;
  declare type: IntegrationType;
  declare name: string;
  declare projectName: string;
  /** The sealed service account (see services/secrets.ts); null when none was given. */
  declare jsonContentSealed: string | null;
  declare language: string;
  declare urlN8N: string;
  declare typebotDelayMessage: number;
  declare typebotExpires: number;
  declare typebotKeywordFinish: string;
  declare typebotKeywordRestart: string;
  declare typebotRestartMessage: string;
  declare typebotSlug: string;
  declare typebotUnknownMessage: string;
  /** The flow a `flowbuilder` integration starts (null for the other types, or once the flow is deleted). */
  declare flowId: number | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A flow (its editor and runtime come with the flow builder's next part). */
export class FlowBuilder extends TenantModel {
  static override tableName = 'flowBuilders';
  static override jsonAttributes = ['flow'];
  declare id: number;
  declare name: string;
  declare active: boolean;
  declare flow: unknown;
}

/** A phrase campaign: a phrase on a connection that starts a flow (docs/product/automation.md#entities). */
export class FlowCampaign extends TenantModel {
  static override tableName = 'flowCampaigns';
  declare id: number;
  declare name: string;
  declare flowId: number;
  declare whatsappId: number | null;
  declare phrase: string;
  declare status: boolean;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A ticket's conversation with its integration. */
export class IntegrationSession extends TenantModel {
  static override tableName = 'integrationSessions';
  static override idColumn = 'ticketId';
  declare ticketId: number;
  declare integrationId: number;
  declare sessionId: string | null;
  declare lastMessageId: number | null;
  declare lastActivityAt: Date;
  declare lastError: string | null;
  declare lastErrorAt: Date | null;
}
