import type { PluginContext } from '@balcao/plugin-sdk/server';
import { newConnectionToken } from '../connections/token';
import { DEMO_CONNECTION_NAME, DEMO_SUPPORT_CONNECTION_NAME, DEMO_SUPPORT_WIDGET_KEY, DEMO_WIDGET_KEY } from '../demo/constants';
import { prepareWebchatConfig } from './config';
import type { WebchatConfig } from './demo-config';
import { chooseSupportChat, PLATFORM_COMPANY_ID, SUPPORT_CHAT_SETTING } from './support-chat';

/**
 * Acme's website chat for the demo page (idempotent): "Site Acme", on Acme's queues, pre-chat name
 * required and e-mail optional, the demo page's origins allowed, CONNECTED, and Acme's default
 * connection when it has none yet.
 */
export async function seedWebchatDemo(ctx: PluginContext, demo: { companies: Record<string, number> }): Promise<number | null> {
  const companyId = demo.companies.acme;
  if (!companyId) return null;
  const { knex } = ctx.db;
  const existing = await knex('whatsapps')
    .where({ companyId, channel: 'webchat' })
    .whereRaw(`channel_config->>'widgetKey' = ?`, [DEMO_WIDGET_KEY])
    .first('id');
  if (existing) return existing.id as number;
  // the channels' areas share the feature's one context, which holds this area's variables
  const port = (ctx as PluginContext<WebchatConfig>).config.WEBCHAT_DEMO_PORT;
  const config = prepareWebchatConfig(
    {
      allowedOrigins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
      prechat: { name: 'required', email: 'optional', phone: 'off' },
      color: '#B5651D',
      theme: 'auto',
      position: 'right',
      title: 'Fale com a Acme',
      welcomeMessage: 'Olá! Como podemos ajudar? Respondemos em poucos minutos.',
    },
    null,
  );
  const hasDefault = await knex('whatsapps').where({ companyId, isDefault: true }).first('id');
  const [row] = await knex('whatsapps')
    .insert({
      companyId,
      name: DEMO_CONNECTION_NAME,
      channel: 'webchat',
      status: 'CONNECTED',
      isDefault: !hasDefault,
      token: newConnectionToken(),
      greetingMessage: 'Olá! Você está falando com a Acme. Escolha um setor:',
      channelConfig: JSON.stringify({ ...config, widgetKey: DEMO_WIDGET_KEY }),
    })
    .returning('id');
  const queues = (await knex('queues').where({ companyId }).orderBy('id').select('id')) as Array<{ id: number }>;
  if (queues.length > 0) {
    await knex('whatsappQueues').insert(queues.map((queue) => ({ companyId, whatsappId: row.id, queueId: queue.id })));
  }
  return row.id as number;
}

/**
 * The platform's support chat for the login page (idempotent): "Suporte Balcão", a webchat connection of the
 * platform company open to any origin (the login page is wherever Balcão is served), chosen as the support
 * chat unless the super user already chose something (none included).
 */
export async function seedSupportChatDemo(
  ctx: PluginContext,
  demo: { companies: Record<string, number> },
): Promise<number | null> {
  if (demo.companies.platform !== PLATFORM_COMPANY_ID) return null;
  const { knex } = ctx.db;
  const existing = await knex('whatsapps')
    .where({ companyId: PLATFORM_COMPANY_ID, channel: 'webchat' })
    .whereRaw(`channel_config->>'widgetKey' = ?`, [DEMO_SUPPORT_WIDGET_KEY])
    .first('id');
  if (existing) return existing.id as number;
  const config = prepareWebchatConfig(
    {
      prechat: { name: 'required', email: 'required', phone: 'off' },
      color: '#1677FF',
      theme: 'auto',
      position: 'right',
      title: 'Suporte Balcão',
      welcomeMessage: 'Olá! Com problemas para entrar? Conte o que aconteceu e a equipe da plataforma responde por aqui.',
    },
    null,
  );
  const hasDefault = await knex('whatsapps').where({ companyId: PLATFORM_COMPANY_ID, isDefault: true }).first('id');
  const [row] = await knex('whatsapps')
    .insert({
      companyId: PLATFORM_COMPANY_ID,
      name: DEMO_SUPPORT_CONNECTION_NAME,
      channel: 'webchat',
      status: 'CONNECTED',
      isDefault: !hasDefault,
      token: newConnectionToken(),
      channelConfig: JSON.stringify({ ...config, widgetKey: DEMO_SUPPORT_WIDGET_KEY }),
    })
    .returning('id');
  if ((await ctx.settings.get(PLATFORM_COMPANY_ID, SUPPORT_CHAT_SETTING)) === null)
    await chooseSupportChat(ctx, row.id as number);
  return row.id as number;
}
