import { TenantModel } from '@balcao/plugin-sdk/server';

/** An AI prompt: the assistant of one queue (docs/ai.md). */
export class Prompt extends TenantModel {
  static override tableName = 'prompts';
  declare id: number;
  declare name: string;
  declare prompt: string;
  declare queueId: number;
  declare voice: string;
  declare apiKeySealed: string;
  declare voiceKeySealed: string | null;
  declare voiceRegion: string;
  declare maxTokens: number;
  declare temperature: number;
  declare maxMessages: number;
  declare baseUrl: string;
  declare model: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}
