import { access, defineRoutes, Id, IdParams, NoBody, NoQuery, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import { callerOf } from '../caller';
import * as contacts from '../contact.service';
import { IMPORT_MAX_ROWS } from '../contact.service';
import {
  ChannelSchema,
  ContactSchema,
  ContactSummarySchema,
  Empty,
  errorResponses,
  QueryBoolean,
  SearchParam,
  TagRefSchema,
} from '../schemas';

/** The number of company A's fixture contact (seed/fixtures.ts), for the walkers' `profile/:number` call. */
const FIXTURE_NUMBER = '5511900000001';

const ContactBody = StrictObject({
  name: Type.String({ minLength: 2, maxLength: 250 }),
  // formatting is stripped before the 8-to-50-digit rule is checked (contact.service.ts)
  number: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
  email: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  extraInfo: Type.Optional(
    Type.Array(
      StrictObject({
        id: Type.Optional(Type.Integer()),
        name: Type.String({ maxLength: 100 }),
        value: Type.String({ maxLength: 5000 }),
      }),
      { maxItems: 100 },
    ),
  ),
  disableBot: Type.Optional(Type.Boolean()),
});

/** Contacts (docs/product/tickets-and-inbox.md#calls-and-realtime-events Contacts; docs/inbox-api.md "Contacts"). */
export default defineRoutes((app, ctx) => {
  app.get(
    '/contacts',
    {
      schema: {
        summary: 'List contacts (search, 40 a page)',
        errors: {},
        querystring: StrictObject({
          searchParam: Type.Optional(SearchParam),
          pageNumber: Type.Optional(PageNumber),
          channel: Type.Optional(ChannelSchema),
          isGroup: Type.Optional(QueryBoolean),
        }),
        response: {
          200: Type.Object({ contacts: Type.Array(ContactSchema), hasMore: Type.Boolean(), count: Type.Integer() }),
        },
      },
      config: { ...access.authenticated, apiKeyScope: 'contacts:read' },
    },
    async (request) => contacts.listContacts(ctx, await callerOf(ctx, request), request.query),
  );

  app.get(
    '/contacts/list',
    {
      schema: {
        summary: 'List all contacts for pickers (id and name)',
        errors: {},
        // companyId: the documented client sends it; the company is always the session's
        querystring: StrictObject({ companyId: Type.Optional(Id), searchParam: Type.Optional(SearchParam) }),
        response: { 200: Type.Array(ContactSummarySchema) },
      },
      config: { ...access.authenticated, apiKeyScope: 'contacts:read' },
    },
    async (request) => contacts.listContactSummaries(ctx, await callerOf(ctx, request), request.query.searchParam),
  );

  app.get(
    '/contacts/profile/:number',
    {
      schema: {
        summary: 'Find a contact by phone number',
        errors: { 404: ['ERR_NO_CONTACT_FOUND'] },
        params: StrictObject({ number: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: NoQuery,
        response: {
          200: Type.Object({ contactId: Type.Integer(), urlPicture: Type.Union([Type.String(), Type.Null()]) }),
          ...errorResponses(404),
        },
      },
      config: { ...access.authenticated, fixtureParams: { number: `=${FIXTURE_NUMBER}` } },
    },
    async (request) => contacts.contactProfile(request.params.number),
  );

  app.get(
    '/contacts/:id',
    {
      schema: {
        summary: 'Get a contact',
        errors: { 404: ['ERR_NO_CONTACT_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: ContactSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'contact' }, apiKeyScope: 'contacts:read' },
    },
    async (request) => contacts.getContact(ctx, await callerOf(ctx, request), request.params.id),
  );

  app.post(
    '/contacts',
    {
      schema: {
        summary: 'Create a contact',
        errors: { 409: ['ERR_DUPLICATED_CONTACT'] },
        body: ContactBody,
        response: { 201: ContactSchema, ...errorResponses(400, 409) },
      },
      config: { ...access.authenticated, apiKeyScope: 'contacts:manage' },
    },
    async (request, reply) => {
      const contact = await contacts.createContact(ctx, await callerOf(ctx, request), request.body);
      return reply.status(201).send(contact);
    },
  );

  app.put(
    '/contacts/:id',
    {
      schema: {
        summary: 'Update a contact',
        errors: { 404: ['ERR_NO_CONTACT_FOUND'], 409: ['ERR_DUPLICATED_CONTACT'] },
        params: IdParams,
        body: ContactBody,
        response: { 200: ContactSchema, ...errorResponses(400, 404, 409) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'contact' }, apiKeyScope: 'contacts:manage' },
    },
    async (request) => contacts.updateContact(ctx, await callerOf(ctx, request), request.params.id, request.body),
  );

  app.delete(
    '/contacts/:id',
    {
      schema: {
        summary: 'Delete a contact',
        errors: { 404: ['ERR_NO_CONTACT_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(403, 404) },
      },
      config: {
        ...access.permission('contacts-page:deleteContact'),
        fixtureParams: { id: 'contact' },
        apiKeyScope: 'contacts:manage',
      },
    },
    async (request, reply) => {
      await contacts.deleteContact(ctx, await callerOf(ctx, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/contacts/toggleAcceptAudio/:contactId',
    {
      schema: {
        summary: 'Toggle whether the contact may send audio',
        errors: { 404: ['ERR_NO_CONTACT_FOUND'] },
        params: StrictObject({ contactId: Id }),
        body: NoBody,
        response: { 200: Type.Object({ acceptAudioMessage: Type.Boolean() }), ...errorResponses(404) },
      },
      config: access.authenticated,
    },
    async (request) => ({
      acceptAudioMessage: await contacts.toggleAcceptAudio(ctx, await callerOf(ctx, request), request.params.contactId),
    }),
  );

  app.put(
    '/contacts/toggleDisableBot/:id',
    {
      schema: {
        summary: 'Toggle the chatbot for the contact',
        errors: { 404: ['ERR_NO_CONTACT_FOUND'] },
        params: IdParams,
        body: NoBody,
        response: { 200: Type.Object({ disableBot: Type.Boolean() }), ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'contact' } },
    },
    async (request) => ({
      disableBot: await contacts.toggleDisableBot(ctx, await callerOf(ctx, request), request.params.id),
    }),
  );

  app.put(
    '/contacts/block/:id',
    {
      schema: {
        summary: 'Block or unblock a contact',
        errors: { 404: ['ERR_NO_CONTACT_FOUND'] },
        params: IdParams,
        body: StrictObject({ active: Type.Boolean() }),
        response: { 200: ContactSchema, ...errorResponses(404) },
      },
      config: { ...access.authenticated, fixtureParams: { id: 'contact' } },
    },
    async (request) => contacts.blockContact(ctx, await callerOf(ctx, request), request.params.id, request.body.active),
  );

  app.post(
    '/contacts/import',
    {
      schema: {
        summary: "Import the contacts of the default connection's phone",
        errors: {},
        body: StrictObject({
          contacts: Type.Array(
            // rows are checked one by one (a bad row is reported, not a refusal of the whole import)
            StrictObject({
              name: Type.Optional(Type.String({ maxLength: 1000 })),
              number: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Number()])),
              email: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
            }),
            { maxItems: IMPORT_MAX_ROWS },
          ),
        }),
        response: {
          200: Type.Object({
            created: Type.Integer(),
            skipped: Type.Integer(),
            errors: Type.Array(Type.Object({ row: Type.Integer(), error: Type.String() })),
          }),
        },
      },
      config: access.authenticated,
    },
    async (request) => contacts.importContacts(ctx, await callerOf(ctx, request), request.body.contacts),
  );

  app.get(
    '/contactTags/:contactId',
    {
      schema: {
        summary: "List a contact's tags",
        errors: { 404: ['ERR_NO_CONTACT_FOUND'] },
        params: StrictObject({ contactId: Id }),
        querystring: NoQuery,
        response: { 200: Type.Array(TagRefSchema), ...errorResponses(404) },
      },
      config: access.authenticated,
    },
    async (request) => contacts.contactTags(ctx, await callerOf(ctx, request), request.params.contactId),
  );
});
