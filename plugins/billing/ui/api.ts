import { api, type SessionState, streamSocketEvent } from '@balcao/plugin-sdk/ui';
import type {
  ChargeStatus,
  Checkout,
  Invoice,
  InvoicePage,
  PaymentEvent,
  Plan,
  Subscription,
  SubscriptionRequest,
} from './types';

export interface InvoiceArgs {
  searchParam: string;
  pageNumber: number;
}

const companyOf = (state: unknown) => (state as { session?: SessionState }).session?.user?.companyId;

/** Puts a page into the merged list: page 1 replaces it, later pages append (rows seen already replaced). */
function mergePage(current: Invoice[], incoming: Invoice[], pageNumber: number): Invoice[] {
  if (pageNumber <= 1) return [...incoming];
  const byId = new Map(incoming.map((row) => [row.id, row]));
  const merged = current.map((row) => byId.get(row.id) ?? row);
  const known = new Set(current.map((row) => row.id));
  for (const row of incoming) if (!known.has(row.id)) merged.push(row);
  return merged;
}

/** The billing's calls (docs/billing.md) on the shell's one API; a payment event marks its invoice paid. */
export const billingApi = api.enhanceEndpoints({ addTagTypes: ['Invoice', 'Subscription'] }).injectEndpoints({
  endpoints: (build) => ({
    invoices: build.query<InvoicePage, InvoiceArgs>({
      query: ({ searchParam, pageNumber }) => ({
        url: '/invoices',
        params: { searchParam: searchParam || undefined, pageNumber },
      }),
      serializeQueryArgs: ({ queryArgs }) => `invoices(${queryArgs.searchParam})`,
      merge: (current, incoming, { arg }) => ({
        ...incoming,
        invoices: mergePage(current.invoices, incoming.invoices, arg.pageNumber),
      }),
      forceRefetch: ({ currentArg, previousArg }) => currentArg?.pageNumber !== previousArg?.pageNumber,
      providesTags: [{ type: 'Invoice', id: 'LIST' }],
      onCacheEntryAdded: (_args, lifecycle) =>
        companyOf(lifecycle.getState()) === undefined
          ? Promise.resolve()
          : streamSocketEvent<InvoicePage, PaymentEvent>(lifecycle, { channel: 'payment' }, (draft, event) => {
              const invoice = draft.invoices.find((row) => row.id === event.invoiceId);
              if (invoice) Object.assign(invoice, { status: 'Pago', linkInvoice: null });
            }),
    }),
    subscription: build.query<Subscription, void>({
      query: () => '/subscription',
      providesTags: ['Subscription'],
    }),
    publicPlans: build.query<Plan[], void>({
      query: () => '/plans/list',
    }),
    subscribe: build.mutation<Checkout, SubscriptionRequest>({
      query: (body) => ({ url: '/subscription', method: 'POST', body }),
    }),
    chargeStatus: build.query<ChargeStatus, string>({
      query: (txid) => `/subscription/charges/${txid}`,
    }),
    createInvoice: build.mutation<Invoice, { companyId: number; detail: string; value: number; dueDate: string }>({
      query: (body) => ({ url: '/invoices', method: 'POST', body }),
      invalidatesTags: [{ type: 'Invoice', id: 'LIST' }],
    }),
    markInvoicePaid: build.mutation<Invoice, number>({
      query: (id) => ({ url: `/invoices/${id}/pay`, method: 'POST' }),
      invalidatesTags: [{ type: 'Invoice', id: 'LIST' }, 'Subscription'],
    }),
    demoPay: build.mutation<ChargeStatus, string>({
      query: (txid) => ({ url: `/billing/demo/charges/${txid}/pay`, method: 'POST' }),
    }),
  }),
});

export const {
  useInvoicesQuery,
  useSubscriptionQuery,
  usePublicPlansQuery,
  useSubscribeMutation,
  useChargeStatusQuery,
  useCreateInvoiceMutation,
  useMarkInvoicePaidMutation,
  useDemoPayMutation,
} = billingApi;
