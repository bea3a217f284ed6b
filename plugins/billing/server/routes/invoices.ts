import { access, defineRoutes, IdParams, NoBody, NoQuery } from '@balcao/plugin-sdk/server';
import { requireBilling, sessionOf } from '../services/enabled';
import { createOneOffInvoice, findInvoice, invoiceJson, listInvoices } from '../services/invoices.service';
import { markPaidManually } from '../services/payments.service';
import { errorResponses, InvoicePage, InvoiceSchema, InvoiceSearchQuery, OneOffInvoiceBody } from '../services/schemas';

/**
 * Invoices (docs/product/administration.md "Invoices and subscription", docs/billing.md): admins read
 * their company's — also with an expired subscription, to pay it — and the super user every company's,
 * creates one-off invoices and marks invoices paid by hand.
 */
export default defineRoutes((app, ctx) => {
  app.get(
    '/invoices',
    {
      schema: {
        summary: "List invoices (the company's; every company's for the super user), search, paged",
        errors: { 404: ['ERR_BILLING_DISABLED'] },
        querystring: InvoiceSearchQuery,
        response: { 200: InvoicePage, ...errorResponses(404) },
      },
      config: { ...access.admin, allowExpired: true },
    },
    async (request) => {
      requireBilling(ctx);
      return listInvoices(ctx, sessionOf(request), request.query);
    },
  );

  app.get(
    '/invoices/:id',
    {
      schema: {
        summary: 'Get an invoice',
        errors: { 404: ['ERR_BILLING_DISABLED', 'ERR_NO_INVOICE_FOUND'] },
        params: IdParams,
        querystring: NoQuery,
        response: { 200: InvoiceSchema, ...errorResponses(404) },
      },
      config: { ...access.admin, allowExpired: true, fixtureParams: { id: 'invoice' } },
    },
    async (request) => {
      requireBilling(ctx);
      return invoiceJson(await findInvoice(ctx.db.knex, sessionOf(request), request.params.id));
    },
  );

  app.post(
    '/invoices',
    {
      schema: {
        summary: 'Create a one-off invoice for a company (super user)',
        errors: { 404: ['ERR_BILLING_DISABLED', 'ERR_NO_COMPANY_FOUND'] },
        body: OneOffInvoiceBody,
        response: { 201: InvoiceSchema, ...errorResponses(404) },
      },
      config: {
        ...access.super,
        fixtureBody: (ids: Record<string, number | string>) => ({
          companyId: Number(ids.company ?? 1),
          detail: 'Walker',
          value: 10,
          dueDate: '2030-01-01',
        }),
      },
    },
    async (request, reply) => {
      requireBilling(ctx);
      reply.status(201);
      return createOneOffInvoice(ctx, request.body);
    },
  );

  app.post(
    '/invoices/:id/pay',
    {
      schema: {
        summary: 'Mark an invoice paid by hand (super user; logged with who and when)',
        errors: { 404: ['ERR_BILLING_DISABLED', 'ERR_NO_INVOICE_FOUND'], 409: ['ERR_INVOICE_ALREADY_PAID'] },
        params: IdParams,
        body: NoBody,
        response: { 200: InvoiceSchema, ...errorResponses(404, 409) },
      },
      config: { ...access.super, fixtureParams: { id: 'invoice' } },
    },
    async (request) => {
      requireBilling(ctx);
      return markPaidManually(ctx, sessionOf(request), request.params.id);
    },
  );
});
