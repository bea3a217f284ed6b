import { access, defineRoutes, Id, IdParams, NoQuery, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import * as lists from '../services/contact-lists.service';
import { ContactListItemBody, ContactListItemSchema, Empty, errorResponses } from '../services/schemas';
import { MANAGE } from './campaigns';

/** A valid item body for the route walkers: company A's list. */
const fixtureBody = (ids: Record<string, number | string>) => ({
  name: 'Walker contact',
  number: `55119${String(Date.now()).slice(-8)}`,
  email: '',
  contactListId: Number(ids.contactList),
});

/** The items of a contact list (docs/product/automation.md#calls-and-realtime-events; the path prefix is ours: `/contact-list-items`). */
export default defineRoutes((app, ctx) => {
  const companyOf = (request: { session: { companyId: number } | null }) => (request.session as { companyId: number }).companyId;

  app.get(
    '/contact-list-items',
    {
      schema: {
        summary: "List a contact list's contacts (search, paged)",
        errors: { 404: ['ERR_NO_CONTACT_LIST_FOUND'] },
        querystring: StrictObject({
          contactListId: Id,
          searchParam: Type.Optional(Type.String({ maxLength: 200 })),
          pageNumber: Type.Optional(PageNumber),
          companyId: Type.Optional(Id),
        }),
        response: {
          200: Type.Object({ contacts: Type.Array(ContactListItemSchema), count: Type.Integer(), hasMore: Type.Boolean() }),
          ...errorResponses(404),
        },
      },
      config: { ...MANAGE },
    },
    async (request) => lists.pageItems(companyOf(request), request.query),
  );

  app.get(
    '/contact-list-items/:id',
    {
      schema: {
        summary: 'Get a contact of a list',
        errors: { 404: ['ERR_NO_CONTACT_LIST_ITEM_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: ContactListItemSchema, ...errorResponses(404) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'contactListItem' } },
    },
    async (request) => lists.loadItem(companyOf(request), request.params.id),
  );

  app.post(
    '/contact-list-items',
    {
      schema: {
        summary: 'Add a contact to a list',
        errors: { 400: ['ERR_INVALID_NUMBER'], 404: ['ERR_NO_CONTACT_LIST_FOUND'], 409: ['ERR_CONTACT_LIST_ITEM_EXISTS'] },
        body: ContactListItemBody,
        response: { 200: ContactListItemSchema, ...errorResponses(400, 404, 409) },
      },
      config: { ...MANAGE, fixtureBody },
    },
    async (request) => lists.createItem(ctx, companyOf(request), request.body),
  );

  app.put(
    '/contact-list-items/:id',
    {
      schema: {
        summary: 'Update a contact of a list',
        errors: {
          400: ['ERR_INVALID_NUMBER'],
          404: ['ERR_NO_CONTACT_LIST_FOUND', 'ERR_NO_CONTACT_LIST_ITEM_FOUND'],
          409: ['ERR_CONTACT_LIST_ITEM_EXISTS'],
        },
        params: IdParams,
        body: ContactListItemBody,
        response: { 200: ContactListItemSchema, ...errorResponses(400, 404, 409) },
      },
      config: { ...MANAGE, fixtureParams: { id: 'contactListItem' }, fixtureBody },
    },
    async (request) => lists.updateItem(ctx, companyOf(request), request.params.id, request.body),
  );

  app.delete(
    '/contact-list-items/:id',
    {
      schema: {
        summary: 'Remove a contact from a list',
        errors: { 404: ['ERR_NO_CONTACT_LIST_ITEM_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      // docs/product/roles-and-permissions.md#roles-in-automation: deleting a list's contact is gated by the contacts' delete permission
      config: { ...access.permission('contacts-page:deleteContact'), fixtureParams: { id: 'contactListItem' } },
    },
    async (request, reply) => {
      await lists.deleteItem(ctx, companyOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
});
