import { ErrorResponse, Id, PageNumber, StrictObject, Type } from '@balcao/plugin-sdk/server';
import {
  GREATER_INTERVAL_OPTIONS,
  HOUR_PATTERN,
  LONGER_INTERVAL_AFTER_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
} from '../../shared/campaigns';

/** `{ 400: ErrorResponse, 404: … }` for the statuses a route may refuse with (for the API docs). */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

export const Empty = Type.Null();

const CampaignStatusSchema = Type.Union([
  Type.Literal('INATIVA'),
  Type.Literal('PROGRAMADA'),
  Type.Literal('EM_ANDAMENTO'),
  Type.Literal('CANCELADA'),
  Type.Literal('FINALIZADA'),
]);
const TicketStatusSchema = Type.Union([Type.Literal('closed'), Type.Literal('pending'), Type.Literal('open')]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const DateText = Type.String();
const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const SearchQuery = StrictObject({
  searchParam: Type.Optional(Type.String({ maxLength: 200 })),
  pageNumber: Type.Optional(PageNumber),
});

/** A list name or an item name: 2 to 50 characters (docs/product/automation.md#validation). */
const Name = Type.String({ minLength: 2, maxLength: 50 });
/** An e-mail, or empty. */
const Email = Type.Union([Type.Literal(''), Type.String({ format: 'email', maxLength: 255 })]);

export const ContactListSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    whatsappId: Nullable(Type.Integer()),
    contactsCount: Type.Integer(),
    createdAt: DateText,
    updatedAt: DateText,
  },
  { title: 'ContactList' },
);

export const ContactListBody = StrictObject({
  name: Name,
  whatsappId: Type.Optional(Nullable(Id)),
  // the documented client sends it; the company is always the session's
  companyId: Type.Optional(Id),
});

export const ContactListItemSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    number: Type.String(),
    email: Nullable(Type.String()),
    isWhatsappValid: Nullable(Type.Boolean()),
    companyId: Type.Integer(),
    contactListId: Type.Integer(),
    createdAt: DateText,
    updatedAt: DateText,
  },
  { title: 'ContactListItem' },
);

export const ContactListItemBody = StrictObject({
  name: Name,
  number: Type.String({ minLength: 8, maxLength: 50 }),
  email: Type.Optional(Nullable(Email)),
  contactListId: Id,
  companyId: Type.Optional(Id),
});

export const ImportSchema = Type.Object(
  {
    id: Type.Integer(),
    contactListId: Type.Integer(),
    fileName: Type.String(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
    progress: Type.Integer(),
    rows: Type.Integer(),
    added: Type.Integer(),
    updated: Type.Integer(),
    refused: Type.Integer(),
    refusedRows: Type.Array(Type.Object({ row: Type.Integer(), reason: Type.String() })),
    error: Nullable(Type.String()),
    createdAt: DateText,
    finishedAt: Nullable(DateText),
  },
  { title: 'ContactListImport' },
);

const Message = Type.String({ maxLength: 4096 });

export const CampaignReportSchema = Type.Object({
  recipients: Type.Integer(),
  valid: Type.Integer(),
  delivered: Type.Integer(),
  confirmationRequested: Type.Integer(),
  confirmed: Type.Integer(),
  failed: Type.Integer(),
  optedOut: Type.Integer(),
  invalid: Type.Integer(),
  pending: Type.Integer(),
});

export const CampaignSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    status: CampaignStatusSchema,
    confirmation: Type.Boolean(),
    message1: Type.String(),
    message2: Type.String(),
    message3: Type.String(),
    message4: Type.String(),
    message5: Type.String(),
    confirmationMessage1: Type.String(),
    confirmationMessage2: Type.String(),
    confirmationMessage3: Type.String(),
    confirmationMessage4: Type.String(),
    confirmationMessage5: Type.String(),
    scheduledAt: Nullable(DateText),
    startedAt: Nullable(DateText),
    completedAt: Nullable(DateText),
    contactListId: Nullable(Type.Integer()),
    contactList: Nullable(Ref),
    tagListId: Nullable(Type.Integer()),
    tagList: Nullable(Ref),
    whatsappId: Nullable(Type.Integer()),
    whatsapp: Nullable(Ref),
    userId: Nullable(Type.Integer()),
    user: Nullable(Ref),
    queueId: Nullable(Type.Integer()),
    queue: Nullable(Ref),
    statusTicket: TicketStatusSchema,
    openTicket: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    mediaName: Nullable(Type.String()),
    mediaUrl: Nullable(Type.String()),
    report: CampaignReportSchema,
    createdAt: DateText,
    updatedAt: DateText,
  },
  { title: 'Campaign' },
);

export const CampaignBody = StrictObject({
  name: Name,
  message1: Type.Optional(Message),
  message2: Type.Optional(Message),
  message3: Type.Optional(Message),
  message4: Type.Optional(Message),
  message5: Type.Optional(Message),
  confirmationMessage1: Type.Optional(Message),
  confirmationMessage2: Type.Optional(Message),
  confirmationMessage3: Type.Optional(Message),
  confirmationMessage4: Type.Optional(Message),
  confirmationMessage5: Type.Optional(Message),
  confirmation: Type.Optional(Type.Boolean()),
  contactListId: Type.Optional(Nullable(Id)),
  tagListId: Type.Optional(Nullable(Id)),
  whatsappId: Id,
  userId: Type.Optional(Nullable(Id)),
  queueId: Type.Optional(Nullable(Id)),
  statusTicket: Type.Optional(TicketStatusSchema),
  openTicket: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
  scheduledAt: Type.Optional(Nullable(Type.Union([Type.Literal(''), Type.String({ format: 'date-time' })]))),
  companyId: Type.Optional(Id),
  status: Type.Optional(Type.String({ maxLength: 20 })),
});

const oneOf = (values: readonly number[]) => Type.Union(values.map((value) => Type.Literal(value)));

export const SettingsBody = StrictObject({
  settings: StrictObject({
    messageInterval: Type.Optional(oneOf(MESSAGE_INTERVAL_OPTIONS)),
    longerIntervalAfter: Type.Optional(oneOf(LONGER_INTERVAL_AFTER_OPTIONS)),
    greaterInterval: Type.Optional(oneOf(GREATER_INTERVAL_OPTIONS)),
    variables: Type.Optional(
      Type.Array(
        StrictObject({
          key: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_]+$' }),
          value: Type.String({ maxLength: 1000 }),
        }),
        { maxItems: 50 },
      ),
    ),
    sabado: Type.Optional(Type.Boolean()),
    domingo: Type.Optional(Type.Boolean()),
    startHour: Type.Optional(Type.String({ pattern: HOUR_PATTERN })),
    endHour: Type.Optional(Type.String({ pattern: HOUR_PATTERN })),
    timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    countryCode: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$' })),
    stopWords: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 20 })),
  }),
});

export const SettingsList = Type.Array(Type.Object({ key: Type.String(), value: Type.String() }));
