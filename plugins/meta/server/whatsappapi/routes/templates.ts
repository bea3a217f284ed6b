import { AppError, access, defineRoutes, NoQuery, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { accountOfConnection } from '../../accounts';
import type { MetaContext } from '../../config';
import { listTemplates, recordTemplateSend, renderTemplate, ticketWindow } from '../templates';

const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: true });
const Params = StrictObject({ whatsappId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const Template = Type.Object({
  name: Type.String(),
  language: Type.String(),
  category: Type.String(),
  body: Type.String(),
  variables: Type.Integer(),
});
const TicketParams = StrictObject({ ticketId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const WindowState = Type.Object({
  /** Whether the ticket's connection is a WhatsApp Cloud one, whose free text the window limits. */
  windowed: Type.Boolean(),
  open: Type.Boolean(),
  /** The connection's templates (`windowed` only). */
  whatsappId: Type.Union([Type.Integer(), Type.Null()]),
  lastInboundAt: Type.Union([Type.String(), Type.Null()]),
  closesAt: Type.Union([Type.String(), Type.Null()]),
});
const SendBody = StrictObject({
  ticketId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  name: Type.String({ minLength: 1, maxLength: 512, pattern: '^[a-z0-9_]+$' }),
  language: Type.String({ minLength: 2, maxLength: 16, pattern: '^[A-Za-z_]+$' }),
  variables: Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 20 }),
});

/** A valid send for the route walkers: company A's ticket (its template check answers before any send). */
const fixtureBody = (ids: Record<string, number | string>) => ({
  ticketId: Number(ids.ticket),
  name: 'walker_template',
  language: 'pt_BR',
  variables: [],
});

/**
 * WhatsApp Cloud templates (docs/meta.md): the approved templates of a connection's business account, and
 * a template sent on a ticket — the one way to write first, or again after the 24-hour window closed. The
 * message is stored and delivered by the inbox like any agent's; the driver sends it as the template.
 */
export default defineRoutes((app, ctx) => {
  const meta = ctx as MetaContext;
  const sessionOf = (request: { session: unknown }) => request.session as { companyId: number; userId: number };

  async function whatsappAccount(companyId: number, whatsappId: number) {
    await meta.plans.require(companyId, 'useWhatsapp');
    const account = await accountOfConnection(meta, companyId, whatsappId);
    if (account?.channel !== 'whatsappapi') throw new AppError('ERR_NO_WAPP_FOUND');
    return account;
  }

  app.get(
    '/meta/whatsappapi/:whatsappId/templates',
    {
      schema: {
        summary: "WhatsApp Cloud: a connection's approved templates",
        errors: { 403: ['ERR_PLAN_FEATURE_DISABLED'], 404: ['ERR_NO_WAPP_FOUND'] },
        params: Params,
        querystring: NoQuery,
        response: { 200: Type.Object({ templates: Type.Array(Template) }), 403: ErrorBody, 404: ErrorBody },
      },
      config: { ...access.authenticated, fixtureParams: { whatsappId: 'metaWhatsapp' } },
    },
    async (request) => {
      const account = await whatsappAccount(sessionOf(request).companyId, request.params.whatsappId);
      return { templates: await listTemplates(meta, account) };
    },
  );

  app.get(
    '/meta/tickets/:ticketId/window',
    {
      schema: {
        summary: "A ticket's 24-hour reply window on WhatsApp Cloud: whether free text may go now",
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        params: TicketParams,
        querystring: NoQuery,
        response: { 200: WindowState, 404: ErrorBody },
      },
      config: { ...access.authenticated, fixtureParams: { ticketId: 'ticket' } },
    },
    async (request) => {
      const session = sessionOf(request);
      const user = await meta.access.sessionUser(request);
      const { ticketId } = request.params;
      if (!(await meta.services.use('inbox').canSeeTicket(user, ticketId))) throw new AppError('ERR_NO_TICKET_FOUND');
      return ticketWindow(meta, session.companyId, ticketId);
    },
  );

  app.post(
    '/meta/whatsappapi/:whatsappId/templates/send',
    {
      schema: {
        summary: 'WhatsApp Cloud: send a template on a ticket',
        errors: {
          400: ['ERR_META_TEMPLATE_INVALID'],
          403: ['ERR_PLAN_FEATURE_DISABLED'],
          404: ['ERR_NO_WAPP_FOUND', 'ERR_NO_TICKET_FOUND'],
        },
        params: Params,
        body: SendBody,
        response: { 200: Type.Object({ messageId: Type.Integer() }), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
      config: { ...access.authenticated, fixtureParams: { whatsappId: 'metaWhatsapp' }, fixtureBody },
    },
    async (request) => {
      const session = sessionOf(request);
      const user = await meta.access.sessionUser(request);
      const inbox = meta.services.use('inbox');
      const { ticketId, name, language, variables } = request.body;
      if (!(await inbox.canSeeTicket(user, ticketId))) throw new AppError('ERR_NO_TICKET_FOUND');
      const account = await whatsappAccount(session.companyId, request.params.whatsappId);
      // a template goes out on the ticket's own connection only (the account's templates are its own)
      const ticket = await meta.db.knex('tickets').where({ companyId: session.companyId, id: ticketId }).first('whatsappId');
      if (Number(ticket?.whatsappId) !== account.whatsappId) throw new AppError('ERR_NO_TICKET_FOUND');
      const template = (await listTemplates(meta, account)).find(
        (candidate) => candidate.name === name && candidate.language === language,
      );
      if (!template) throw new AppError('ERR_META_TEMPLATE_INVALID');
      const body = renderTemplate(template, variables);
      await recordTemplateSend(meta, session.companyId, ticketId, body, { name, language, variables });
      return inbox.send({ ticketId, body, userId: session.userId });
    },
  );
});
