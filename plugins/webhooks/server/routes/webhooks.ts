import { access, defineRoutes, IdParams, NoBody, NoQuery } from '@balcao/plugin-sdk/server';
import type { WebhooksContext } from '../config';
import { languageOf } from '../services/disable-mail';
import {
  DeliveryPage,
  DeliveryParams,
  DeliveryQuery,
  DeliverySchema,
  Empty,
  errorResponses,
  WebhookBody,
  WebhookList,
  WebhookSchema,
  WebhookWithSecret,
} from '../services/schemas';
import * as webhooks from '../services/webhooks.service';

/** A valid endpoint for the route walkers: an address that never resolves (nothing is ever sent to it). */
const fixtureBody = { name: 'Walker endpoint', url: 'https://receiver.example.invalid/hook', events: ['ticket.created'] };

const URL_ERRORS = { 400: ['ERR_WEBHOOK_URL_INVALID', 'ERR_WEBHOOK_URL_BLOCKED'] } as const;

/**
 * Outbound webhooks (docs/api.md "Webhooks"): a company admin's endpoints, their secrets (shown once) and
 * delivery logs. Gated by useExternalApi like the message API.
 */
export default defineRoutes((app, rawCtx) => {
  const ctx = rawCtx as WebhooksContext;
  const companyOf = (request: { session: unknown }) => (request.session as { companyId: number }).companyId;
  // the interface sends its language: the e-mail of a disabled endpoint is written in it
  const languageFrom = (request: { headers: Record<string, unknown> }) => {
    const header = request.headers['accept-language'];
    return languageOf(typeof header === 'string' ? header : null);
  };

  app.get(
    '/webhooks',
    {
      schema: { summary: 'List webhook endpoints', errors: {}, querystring: NoQuery, response: { 200: WebhookList } },
      config: { ...access.admin },
    },
    async (request) => webhooks.listWebhooks(ctx, companyOf(request)),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        summary: 'Register a webhook endpoint (answers its signing secret, this once)',
        errors: { ...URL_ERRORS, 409: ['ERR_WEBHOOK_LIMIT_REACHED'] },
        body: WebhookBody,
        response: { 201: WebhookWithSecret, ...errorResponses(400, 409) },
      },
      config: { ...access.admin, fixtureBody },
    },
    async (request, reply) =>
      reply.status(201).send(await webhooks.createWebhook(ctx, companyOf(request), request.body, languageFrom(request))),
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        summary: 'Get a webhook endpoint',
        errors: { 404: ['ERR_NO_WEBHOOK_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: WebhookSchema, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'webhook' } },
    },
    async (request) => webhooks.getWebhook(ctx, companyOf(request), request.params.id),
  );

  app.put(
    '/webhooks/:id',
    {
      schema: {
        summary: 'Change a webhook endpoint (switching it on again clears its failures)',
        errors: { ...URL_ERRORS, 404: ['ERR_NO_WEBHOOK_FOUND'] },
        params: IdParams,
        body: WebhookBody,
        response: { 200: WebhookSchema, ...errorResponses(400, 404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'webhook' }, fixtureBody },
    },
    async (request) => webhooks.updateWebhook(ctx, companyOf(request), request.params.id, request.body, languageFrom(request)),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        summary: 'Delete a webhook endpoint and its delivery log',
        errors: { 404: ['ERR_NO_WEBHOOK_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 204: Empty, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'webhook' } },
    },
    async (request, reply) => {
      await webhooks.deleteWebhook(ctx, companyOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        summary: 'Replace the signing secret (answers the new one, this once)',
        errors: { 404: ['ERR_NO_WEBHOOK_FOUND'] },
        params: IdParams,
        body: NoBody,
        response: { 200: WebhookWithSecret, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'webhook' } },
    },
    async (request) => webhooks.rotateSecret(ctx, companyOf(request), request.params.id),
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        summary: 'Send a webhook.test delivery to the endpoint (switched on)',
        errors: { 404: ['ERR_NO_WEBHOOK_FOUND'], 409: ['ERR_WEBHOOK_INACTIVE'] },
        params: IdParams,
        body: NoBody,
        response: { 201: DeliverySchema, ...errorResponses(404, 409) },
      },
      config: { ...access.admin, fixtureParams: { id: 'webhook' } },
    },
    async (request, reply) => reply.status(201).send(await webhooks.sendTest(ctx, companyOf(request), request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        summary: "An endpoint's delivery log, newest first (20 a page)",
        errors: { 404: ['ERR_NO_WEBHOOK_FOUND'] },
        params: IdParams,
        querystring: DeliveryQuery,
        response: { 200: DeliveryPage, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'webhook' } },
    },
    async (request) => webhooks.listDeliveries(ctx, companyOf(request), request.params.id, request.query.pageNumber),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        summary: "Send a delivery's event again, as a new delivery",
        errors: { 404: ['ERR_NO_WEBHOOK_FOUND', 'ERR_NO_WEBHOOK_DELIVERY_FOUND'] },
        params: DeliveryParams,
        body: NoBody,
        response: { 201: DeliverySchema, ...errorResponses(404) },
      },
      config: { ...access.admin, fixtureParams: { id: 'webhook', deliveryId: 'webhookDelivery' } },
    },
    async (request, reply) =>
      reply.status(201).send(await webhooks.redeliver(ctx, companyOf(request), request.params.id, request.params.deliveryId)),
  );
});
