import { ErrorResponse, Id, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';

/** `{ 400: ErrorResponse, 404: … }` for the statuses a route may refuse with (for the API docs). */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const InvoiceSchema = Type.Object(
  {
    id: Type.Integer(),
    companyId: Type.Integer(),
    companyName: Type.String(),
    detail: Type.String(),
    kind: Type.Union([Type.Literal('recurring'), Type.Literal('subscription'), Type.Literal('oneoff')]),
    users: Type.Integer(),
    connections: Type.Integer(),
    dueDate: Day,
    value: Type.String(),
    status: Type.Union([Type.Literal('Pago'), Type.Literal('Aberto')]),
    paidAt: Type.Union([Type.String(), Type.Null()]),
    paidWith: Type.Union([Type.String(), Type.Null()]),
    linkInvoice: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
  },
  { title: 'Invoice' },
);

export const InvoiceSearchQuery = StrictObject({
  searchParam: Type.Optional(Type.String({ maxLength: 200 })),
  pageNumber: Type.Optional(PageNumber),
});

export const InvoicePage = Type.Object({ invoices: Type.Array(InvoiceSchema), count: Type.Integer(), hasMore: Type.Boolean() });

/** The super user's one-off invoice. */
export const OneOffInvoiceBody = StrictObject({
  companyId: Id,
  detail: Type.String({ minLength: 2, maxLength: 255 }),
  value: Type.Number({ minimum: 0.01, maximum: 10_000_000 }),
  dueDate: Type.String({ format: 'date' }),
  users: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  connections: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
});

const Text = (max: number) => Type.Optional(Type.String({ maxLength: max }));

/**
 * The subscription request (docs/product/administration.md "Entities"). The card fields are accepted for
 * the documented shape and never stored; `price` is accepted and ignored — the server prices.
 */
export const SubscriptionBody = StrictObject({
  firstName: Type.String({ minLength: 1, maxLength: 100 }),
  lastName: Text(100),
  address2: Text(255),
  city: Text(100),
  state: Text(100),
  // the CPF or CNPJ (the documented field name), with or without punctuation
  zipcode: Type.String({ minLength: 11, maxLength: 18, pattern: '^[0-9./ -]+$' }),
  country: Text(100),
  useAddressForPaymentDetails: Type.Optional(Type.Boolean()),
  nameOnCard: Text(100),
  cardNumber: Text(30),
  cvv: Text(6),
  plan: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Object({}, { additionalProperties: true })])),
  price: Type.Optional(Type.Union([Type.Number(), Type.String({ maxLength: 30 }), Type.Null()])),
  users: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  connections: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  invoiceId: Type.Optional(Type.Union([Id, Type.Null()])),
});

export const CheckoutSchema = Type.Object({
  txid: Type.String(),
  invoiceId: Type.Integer(),
  status: Type.String(),
  expiresAt: Type.String(),
  qrcode: Type.Object({ qrcode: Type.String(), imagemQrcode: Type.Union([Type.String(), Type.Null()]) }),
  valor: Type.Object({ original: Type.String() }),
});

export const TxidParams = StrictObject({ txid: Type.String({ pattern: '^[A-Za-z0-9]{26,35}$' }) });

export const ChargeStatusSchema = Type.Object({
  txid: Type.String(),
  invoiceId: Type.Integer(),
  status: Type.String(),
  dueDate: Day,
});

export const SubscriptionSchema = Type.Object({
  dueDate: Day,
  daysLeft: Type.Integer(),
  billingEmail: Type.String(),
  recurrence: Type.String(),
  plan: Type.Object({ id: Type.Integer(), name: Type.String(), amount: Type.String() }),
  payable: Type.Boolean(),
  /** The stand-in gateway is in use: the Pix view offers the demo's "pay with your bank app" page. */
  demoPayments: Type.Boolean(),
});
