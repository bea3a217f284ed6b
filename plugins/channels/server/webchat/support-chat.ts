import { AppError, type PluginContext } from '@balcao/plugin-sdk/server';
import { readConfig } from './config';

/**
 * The platform's support chat (docs/channels/widget.md "The login page's support chat"): the super user picks
 * one webchat connection of the platform company; the login page shows a button that opens that connection's
 * widget. The choice is a setting of the platform company, the same place as the whitelabel.
 */

/** The platform company (docs/product/administration.md: the super user's company, id 1). */
export const PLATFORM_COMPANY_ID = 1;
/** The platform company's setting that holds the chosen connection's id ('' or missing: no support chat). */
export const SUPPORT_CHAT_SETTING = 'supportChatWhatsappId';
/** Where the widget's loader is served (the static server serves `plugins/<id>/dist/widget/` there). */
export const WIDGET_SCRIPT_PATH = '/plugins/channels/widget/channels-widget.js';

/** A webchat connection of the platform company as the picker lists it. */
export interface SupportChatOption {
  id: number;
  name: string;
  /** The origins its widget accepts (empty: any): the login page's must be one of them. */
  allowedOrigins: string[];
}

/** What the login page needs to open the support chat, and nothing more: both are public by design. */
export interface SupportChatWidget {
  widgetKey: string;
  scriptUrl: string;
}

async function platformWebchat(ctx: PluginContext, connectionId?: number) {
  const query = ctx.db.knex('whatsapps').where({ companyId: PLATFORM_COMPANY_ID, channel: 'webchat' });
  if (connectionId !== undefined) query.andWhere({ id: connectionId });
  return (await query.orderBy([{ column: 'name' }, { column: 'id' }]).select('id', 'name', 'channelConfig')) as Array<{
    id: number;
    name: string;
    channelConfig: Record<string, unknown> | null;
  }>;
}

/** The chosen connection's id, or null (none chosen, or a value that is not an id). */
export async function supportChatChoice(ctx: PluginContext): Promise<number | null> {
  const raw = (await ctx.settings.all(PLATFORM_COMPANY_ID))[SUPPORT_CHAT_SETTING] ?? '';
  return /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : null;
}

/** The platform company's webchat connections, for the super user's picker. */
export async function supportChatOptions(ctx: PluginContext): Promise<SupportChatOption[]> {
  return (await platformWebchat(ctx)).map((row) => ({
    id: row.id,
    name: row.name,
    allowedOrigins: readConfig(row.channelConfig).allowedOrigins,
  }));
}

/**
 * The widget of the chosen connection, or null when none is chosen or the chosen one is gone (deleted,
 * or no longer a webchat of the platform company): the login page then shows no button.
 */
export async function supportChatWidget(ctx: PluginContext): Promise<SupportChatWidget | null> {
  const connectionId = await supportChatChoice(ctx);
  if (connectionId === null) return null;
  const [row] = await platformWebchat(ctx, connectionId);
  const widgetKey = row ? readConfig(row.channelConfig).widgetKey : '';
  return widgetKey ? { widgetKey, scriptUrl: WIDGET_SCRIPT_PATH } : null;
}

/** Chooses the support chat (null: none). Only a webchat connection of the platform company: else 404 ERR_NO_WAPP_FOUND. */
export async function chooseSupportChat(ctx: PluginContext, connectionId: number | null): Promise<void> {
  if (connectionId !== null && (await platformWebchat(ctx, connectionId)).length === 0) throw new AppError('ERR_NO_WAPP_FOUND');
  await ctx.settings.set(PLATFORM_COMPANY_ID, SUPPORT_CHAT_SETTING, connectionId === null ? '' : String(connectionId));
}
