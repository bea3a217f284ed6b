import { access, defineRoutes, Id, NoQuery, type PluginContext, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { errorResponses } from '../../connections/schemas';
import { chooseSupportChat, supportChatChoice, supportChatOptions, supportChatWidget } from '../support-chat';

const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) =>
  Type.Union([schema, Type.Null()]);
const PublicAnswer = Type.Object({ widgetKey: Nullable(Type.String()), scriptUrl: Nullable(Type.String()) });
const SettingsAnswer = Type.Object({
  whatsappId: Nullable(Type.Integer()),
  connections: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), allowedOrigins: Type.Array(Type.String()) })),
});

async function settingsAnswer(ctx: PluginContext) {
  const [whatsappId, connections] = await Promise.all([supportChatChoice(ctx), supportChatOptions(ctx)]);
  // a chosen connection that is gone reads as none
  return { whatsappId: connections.some((connection) => connection.id === whatsappId) ? whatsappId : null, connections };
}

/**
 * The platform's support chat (docs/channels/widget.md "The login page's support chat"): the public answer
 * the login page reads (the widget's public key and the loader's address, or nulls: no button), and the
 * super user's choice among the platform company's webchat connections.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/support-chat',
    {
      schema: {
        summary: "The login page's support chat: the widget to open, or nulls when none is set",
        errors: {},
        querystring: NoQuery,
        response: { 200: PublicAnswer },
      },
      config: access.public,
    },
    async () => (await supportChatWidget(ctx)) ?? { widgetKey: null, scriptUrl: null },
  );

  app.get(
    '/support-chat/settings',
    {
      schema: {
        summary: "The support chat's connection and the platform company's webchat connections to choose from",
        errors: {},
        querystring: NoQuery,
        response: { 200: SettingsAnswer },
      },
      config: access.super,
    },
    async () => settingsAnswer(ctx),
  );

  app.put(
    '/support-chat',
    {
      schema: {
        summary: 'Choose the support chat (a webchat connection of the platform company), or none',
        errors: { 404: ['ERR_NO_WAPP_FOUND'] },
        body: StrictObject({ whatsappId: Type.Union([Id, Type.Null()]) }),
        response: { 200: SettingsAnswer, ...errorResponses(400, 404) },
      },
      config: { ...access.super, fixtureBody: { whatsappId: null } },
    },
    async (request) => {
      await chooseSupportChat(ctx, request.body.whatsappId);
      return settingsAnswer(ctx);
    },
  );
});
