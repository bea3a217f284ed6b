/** An invoice as `GET /invoices` answers it (docs/product/administration.md "Entities" Invoice). */
export interface Invoice {
  id: number;
  companyId: number;
  companyName: string;
  detail: string;
  kind: 'recurring' | 'subscription' | 'oneoff';
  users: number;
  connections: number;
  dueDate: string;
  value: string;
  status: 'Pago' | 'Aberto';
  paidAt: string | null;
  paidWith: string | null;
  linkInvoice: string | null;
  createdAt: string;
}

export interface InvoicePage {
  invoices: Invoice[];
  count: number;
  hasMore: boolean;
}

export interface Subscription {
  dueDate: string;
  daysLeft: number;
  billingEmail: string;
  recurrence: string;
  plan: { id: number; name: string; amount: string };
  payable: boolean;
  demoPayments: boolean;
}

/** A public plan of `GET /plans/list`. */
export interface Plan {
  id: number;
  name: string;
  users: number;
  connections: number;
  amount: string | number;
}

/** The subscription request (docs/product/administration.md "Entities"). */
export interface SubscriptionRequest {
  firstName: string;
  lastName?: string;
  zipcode: string;
  plan?: string;
  price?: number;
  users?: number;
  connections?: number;
  invoiceId?: number | null;
}

export interface Checkout {
  txid: string;
  invoiceId: number;
  status: string;
  expiresAt: string;
  qrcode: { qrcode: string; imagemQrcode: string | null };
  valor: { original: string };
}

export interface ChargeStatus {
  txid: string;
  invoiceId: number;
  status: string;
  dueDate: string;
}

/** `company-{id}-payment`. */
export interface PaymentEvent {
  action: 'CONCLUIDA';
  company: { id: number; dueDate: string };
  invoiceId: number;
}
