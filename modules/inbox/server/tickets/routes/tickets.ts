import {
  AppError,
  access,
  defineRoutes,
  type FastifyRequest,
  Id,
  IdParams,
  NoQuery,
  PageNumber,
  type PluginContext,
  requireOwnIds,
  StrictObject,
  Type,
} from '@balcao/plugin-sdk/server';
import { RATING_CHOICES, TICKET_STATUSES, type Ticket, type TicketStatus } from '../../../shared/types';
import { JSON_TEXT } from '../../json-sql';
import { TicketSchema, TicketStatusSchema } from '../schemas';
import { loadTicket, maskContact, masksNumbers } from '../serializer';
import { createTicket } from '../ticket-create.service';
import { listTickets, type TicketListPage } from '../ticket-list.service';
import { closeAllTickets, deleteTicket, findVisibleTicket, updateTicket } from '../ticket-transitions.service';
import { type Viewer, viewerOf } from '../visibility';

/** A JSON array of ids in one query parameter, as the documented client sends it: `queueIds=[1,2]`. */
const IdListParam = Type.String({ pattern: '^\\[\\s*(\\d{1,10}\\s*(,\\s*\\d{1,10}\\s*)*)?\\]$', maxLength: 4_000 });
const STATUS_ALTERNATIVES = TICKET_STATUSES.join('|');
/** A JSON array of statuses in one query parameter: `statusFilter=["open","pending"]`. */
const StatusListParam = Type.String({
  pattern: `^\\[\\s*("(${STATUS_ALTERNATIVES})"\\s*(,\\s*"(${STATUS_ALTERNATIVES})"\\s*)*)?\\]$`,
  maxLength: 200,
});
const NullableId = Type.Union([Id, Type.Null()]);

const ListQuery = StrictObject({
  searchParam: Type.Optional(Type.String({ maxLength: 200 })),
  pageNumber: Type.Optional(PageNumber),
  status: Type.Optional(TicketStatusSchema),
  showAll: Type.Optional(Type.Boolean()),
  queueIds: Type.Optional(IdListParam),
  tags: Type.Optional(IdListParam),
  users: Type.Optional(IdListParam),
  whatsapps: Type.Optional(IdListParam),
  statusFilter: Type.Optional(StatusListParam),
  withUnreadMessages: Type.Optional(Type.Boolean()),
  searchOnMessages: Type.Optional(Type.Boolean()),
  date: Type.Optional(Type.String({ format: 'date' })),
  updatedAt: Type.Optional(Type.String({ format: 'date' })),
  sortTickets: Type.Optional(Type.Union([Type.Literal('ASC'), Type.Literal('DESC')])),
});

const CreateBody = StrictObject({
  contactId: Id,
  userId: Type.Optional(NullableId),
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('pending'), Type.Literal('group')])),
  queueId: Type.Optional(NullableId),
  whatsappId: Type.Optional(NullableId),
  // the documented client sends its company (docs/product/tickets-and-inbox.md#calls-and-realtime-events); the company always comes from the session, and the
  // core refuses a companyId that isn't the caller's (server/src/http/foreign-id-guard.ts)
  companyId: Type.Optional(Id),
});

const UpdateBody = StrictObject({
  status: Type.Optional(
    Type.Union([Type.Literal('open'), Type.Literal('pending'), Type.Literal('closed'), Type.Literal('group')]),
  ),
  userId: Type.Optional(NullableId),
  queueId: Type.Optional(NullableId),
  msgTransfer: Type.Optional(Type.String({ maxLength: 4_096 })),
  isTransfered: Type.Optional(Type.Boolean()),
  sendFarewellMessage: Type.Optional(Type.Boolean()),
  // the rating modal's choice on a resolve (docs/inbox-api.md "Transitions"): ask the contact, or close without
  ratingId: Type.Optional(Type.Union(RATING_CHOICES.map((choice) => Type.Literal(choice)))),
  amountUsedBotQueues: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000 })),
  useIntegration: Type.Optional(Type.Boolean()),
});

const CloseAllBody = StrictObject({
  status: TicketStatusSchema,
  selectedQueueIds: Type.Optional(Type.Array(Id, { maxItems: 1_000 })),
});

/** Parses a validated JSON id list; ids past the database range are refused. */
function idList(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  const ids = JSON.parse(text) as number[];
  if (ids.some((id) => id < 1 || id > 2_147_483_647)) throw new AppError('ERR_VALIDATION');
  return [...new Set(ids)];
}

/** The caller: session user as a Viewer, their company, and whether their answers carry masked numbers. */
async function callerOf(ctx: PluginContext, request: FastifyRequest) {
  const user = await ctx.access.sessionUser(request);
  const viewer: Viewer = viewerOf(user);
  const settings = await ctx.settings.all(user.companyId);
  return { user, viewer, companyId: user.companyId, settings, mask: masksNumbers(viewer.profile, settings) };
}

const masked = (ticket: Ticket, mask: boolean): Ticket => (mask ? { ...ticket, contact: maskContact(ticket.contact) } : ticket);

/** Tickets (docs/inbox-api.md "Tickets"; docs/product/tickets-and-inbox.md#states-and-transitions, docs/product/roles-and-permissions.md#roles-in-the-inbox, docs/product/tickets-and-inbox.md#calls-and-realtime-events). */
export default defineRoutes((app, ctx) => {
  app.get(
    '/tickets',
    {
      schema: {
        summary: "List tickets (the inbox's tabs, filters and search)",
        errors: {},
        querystring: ListQuery,
        response: { 200: Type.Object({ tickets: Type.Array(TicketSchema), hasMore: Type.Boolean(), count: Type.Integer() }) },
      },
      config: { ...access.authenticated, apiKeyScope: 'tickets:read' },
    },
    async (request, reply) => {
      const { viewer, companyId, settings, mask } = await callerOf(ctx, request);
      const query = request.query;
      // `queueIds` is checked by the core with every field named like an id; these lists are named otherwise
      await requireOwnIds(ctx.db.knex, companyId, [
        { table: 'tags', entity: 'tag', ids: idList(query.tags) ?? [] },
        { table: 'users', entity: 'user', ids: idList(query.users) ?? [] },
        // the channels plugin's table: only there when it is installed
        ...(ctx.services.has('connections')
          ? [{ table: 'whatsapps', entity: 'whatsapp', ids: idList(query.whatsapps) ?? [] }]
          : []),
      ]);
      const json = await listTickets(
        ctx.db.knex,
        companyId,
        viewer,
        {
          searchParam: query.searchParam,
          searchOnMessages: query.searchOnMessages,
          pageNumber: query.pageNumber,
          status: query.status as TicketStatus | undefined,
          showAll: query.showAll,
          queueIds: idList(query.queueIds),
          tags: idList(query.tags),
          users: idList(query.users),
          whatsapps: idList(query.whatsapps),
          statusFilter: query.statusFilter === undefined ? undefined : (JSON.parse(query.statusFilter) as TicketStatus[]),
          withUnreadMessages: query.withUnreadMessages,
          date: query.date,
          updatedAt: query.updatedAt,
          sortTickets: query.sortTickets,
        },
        { settings, mask },
      );
      // Postgres built the answer in the schema's shape (services/json-sql.ts): a JSON string is sent as it is
      return reply.type(JSON_TEXT).send(json as unknown as TicketListPage);
    },
  );

  app.get(
    '/tickets/u/:uuid',
    {
      schema: {
        summary: 'Get a ticket by its uuid',
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        params: StrictObject({ uuid: Type.String({ format: 'uuid' }) }),
        querystring: NoQuery,
        response: { 200: TicketSchema },
      },
      config: { ...access.authenticated, fixtureParams: { uuid: 'ticketUuid' }, apiKeyScope: 'tickets:read' },
    },
    async (request) => {
      const { viewer, companyId, mask } = await callerOf(ctx, request);
      const row = (await ctx.db.knex('tickets').where({ companyId, uuid: request.params.uuid.toLowerCase() }).first('id')) as
        | { id: number }
        | undefined;
      if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
      await findVisibleTicket(viewer, row.id);
      const ticket = await loadTicket(ctx.db.knex, companyId, row.id, mask);
      if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
      return ticket;
    },
  );

  app.get(
    '/tickets/:id',
    {
      schema: {
        summary: 'Get a ticket',
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: TicketSchema },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'ticket' }, apiKeyScope: 'tickets:read' },
    },
    async (request) => {
      const { viewer, companyId, mask } = await callerOf(ctx, request);
      await findVisibleTicket(viewer, request.params.id);
      const ticket = await loadTicket(ctx.db.knex, companyId, request.params.id, mask);
      if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
      return ticket;
    },
  );

  app.post(
    '/tickets',
    {
      schema: {
        summary: 'Open a ticket for a contact',
        errors: {
          400: ['ERR_QUEUE_REQUIRED', 'ERR_WAPP_INVALID_CONTACT'],
          403: ['ERR_PLAN_FEATURE_DISABLED'],
          404: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_DEF_WAPP_FOUND', 'ERR_NO_QUEUE_FOUND', 'ERR_NO_USER_FOUND', 'ERR_NO_WAPP_FOUND'],
          409: ['ERR_OTHER_OPEN_TICKET'],
        },
        body: CreateBody,
        response: { 201: TicketSchema },
      },
      config: {
        ...access.authenticated,
        fixtureBody: (ids: Record<string, number | string>) => ({
          contactId: ids.secondContact ?? ids.contact,
          queueId: ids.queue,
          whatsappId: ids.whatsapp,
          status: 'open',
        }),
      },
    },
    async (request, reply) => {
      const { viewer, companyId, mask } = await callerOf(ctx, request);
      const ticket = await createTicket(ctx, companyId, viewer, request.body);
      return reply.status(201).send(masked(ticket, mask));
    },
  );

  app.put(
    '/tickets/:id',
    {
      schema: {
        summary: 'Update a ticket (accept, transfer, resolve, reopen)',
        errors: {
          400: ['ERR_QUEUE_REQUIRED', 'ERR_TICKET_TAG_REQUIRED'],
          403: ['ERR_NO_PERMISSION'],
          404: ['ERR_NO_TICKET_FOUND'],
          409: ['ERR_OTHER_OPEN_TICKET'],
        },
        params: IdParams,
        body: UpdateBody,
        response: { 200: TicketSchema },
      },
      config: {
        ...access.authenticated,
        fixtureParams: { id: 'ticket' },
        fixtureBody: (ids: Record<string, number | string>) => ({ status: 'open', userId: ids.admin, queueId: ids.queue }),
      },
    },
    async (request) => {
      const { viewer, companyId, mask } = await callerOf(ctx, request);
      const ticket = await updateTicket(
        ctx,
        companyId,
        viewer,
        request.params.id,
        request.body,
        request.headers['accept-language'] ?? null,
      );
      return masked(ticket, mask);
    },
  );

  app.delete(
    '/tickets/:id',
    {
      schema: {
        summary: 'Delete a ticket and its messages',
        errors: { 404: ['ERR_NO_TICKET_FOUND'] },
        params: IdParams,
        response: { 204: Type.Null() },
      },
      config: { ...access.permission('ticket-options:deleteTicket'), fixtureParams: { id: 'ticket' } },
    },
    async (request, reply) => {
      const { viewer, companyId } = await callerOf(ctx, request);
      await deleteTicket(ctx, companyId, viewer, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/tickets/closeAll',
    {
      schema: {
        summary: 'Resolve every ticket of a status (optionally per queue)',
        errors: {},
        body: CloseAllBody,
        response: { 200: Type.Object({ closed: Type.Integer() }) },
      },
      config: access.permission('tickets-manager:closeAll'),
    },
    async (request) => {
      const { user, companyId } = await callerOf(ctx, request);
      const closed = await closeAllTickets(
        ctx,
        companyId,
        user.id,
        request.body.status as TicketStatus,
        request.body.selectedQueueIds ?? [],
      );
      return { closed };
    },
  );
});
