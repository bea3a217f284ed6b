import { ErrorResponse, PLAN_FLAGS, Type } from '@balcao/plugin-sdk/server';

/** The company whose settings are the platform's (whitelabel, signup switch) and whose storage holds its files. */
export const PLATFORM_COMPANY_ID = 1;

/** Error answers of a route, by status. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorResponse])) as Record<number, typeof ErrorResponse>;

/** No content. */
export const Empty = Type.Null();

/** The search text of a list. */
export const SearchParam = Type.String({ maxLength: 200 });

/** docs/product/administration.md#states-and-transitions: the due-date recurrences and the months each one adds. */
export const RECURRENCE_MONTHS = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 } as const;
export type Recurrence = keyof typeof RECURRENCE_MONTHS;
export const RecurrenceSchema = Type.Union(
  (Object.keys(RECURRENCE_MONTHS) as Recurrence[]).map((recurrence) => Type.Literal(recurrence)),
);

/** A plan's flags, each a boolean. */
const planFlagFields = (optional: boolean) =>
  Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, optional ? Type.Optional(Type.Boolean()) : Type.Boolean()])) as Record<
    (typeof PLAN_FLAGS)[number],
    ReturnType<typeof Type.Boolean>
  >;

/** A plan (docs/product/administration.md#entities Plan); `amount` is the decimal as text, like `GET /plans/list`. */
export const PlanSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    users: Type.Integer(),
    connections: Type.Integer(),
    queues: Type.Integer(),
    amount: Type.String(),
    isPublic: Type.Boolean(),
    ...planFlagFields(false),
    /** The loaded plugins' own flags, each on or off (`GET /plans/flags` gives their labels). */
    pluginFlags: Type.Record(Type.String(), Type.Boolean()),
  },
  { title: 'Plan' },
);

/** `GET /plans/flags`: the flags the loaded plugins declare, with their labels. */
export const PluginFlagList = Type.Object({
  flags: Type.Array(
    Type.Object({
      key: Type.String(),
      plugin: Type.String(),
      label: Type.Object({ pt: Type.String(), en: Type.String(), es: Type.String(), tr: Type.String() }),
    }),
  ),
});

const Limit = Type.Integer({ minimum: 0, maximum: 100_000 });

/** `POST /plans`, `PUT /plans/:planId` (decisions.md: the bounds docs/product doesn't give). */
export const PlanBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    users: Limit,
    connections: Limit,
    queues: Limit,
    amount: Type.Number({ minimum: 0, maximum: 999_999_999 }),
    isPublic: Type.Optional(Type.Boolean()),
    ...planFlagFields(true),
    /** Plugins' own flags by key; a key no loaded plugin declares is refused (400 ERR_UNKNOWN_PLAN_FLAG). */
    pluginFlags: Type.Optional(Type.Record(Type.String({ maxLength: 43 }), Type.Boolean(), { maxProperties: 200 })),
  },
  { additionalProperties: false },
);

/** A company as the super user's screens show it (docs/product/administration.md#entities Company, #companies-plans-and-helps columns). */
export const CompanySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    phone: Type.Union([Type.String(), Type.Null()]),
    document: Type.Union([Type.String(), Type.Null()]),
    addressStreet: Type.Union([Type.String(), Type.Null()]),
    addressState: Type.Union([Type.String(), Type.Null()]),
    addressCity: Type.Union([Type.String(), Type.Null()]),
    planId: Type.Integer(),
    plan: Type.Object({ id: Type.Integer(), name: Type.String(), amount: Type.String() }),
    status: Type.Boolean(),
    dueDate: Type.String(),
    recurrence: Type.String(),
    paymentMethod: Type.Union([Type.String(), Type.Null()]),
    numberAttendants: Type.Integer(),
    numberConections: Type.Integer(),
    value: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    lastLogin: Type.Union([Type.String(), Type.Null()]),
    /** Bytes in the company's storage folder. */
    folderSize: Type.Integer(),
    numberFileFolder: Type.Integer(),
    updatedAtFolder: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'Company' },
);

const OptionalText = (maxLength: number) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));

/** The editable fields of a company (docs/product/administration.md#validation Company: name 2 to 50, e-mail valid). */
const companyFields = {
  name: Type.String({ minLength: 2, maxLength: 50, pattern: '\\S' }),
  email: Type.String({ format: 'email', maxLength: 255 }),
  phone: OptionalText(50),
  document: OptionalText(50),
  addressStreet: OptionalText(255),
  addressState: OptionalText(100),
  addressCity: OptionalText(100),
  planId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  status: Type.Optional(Type.Boolean()),
  dueDate: Type.Optional(Type.String({ format: 'date' })),
  recurrence: Type.Optional(RecurrenceSchema),
  paymentMethod: OptionalText(50),
  numberAttendants: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  numberConections: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  value: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 999_999_999 }), Type.Null()])),
};

/** `POST /companies`: the company and the password of its first admin (the form's default password). */
export const CreateCompanyBody = Type.Object(
  { ...companyFields, password: Type.String({ minLength: 5, maxLength: 50 }) },
  { additionalProperties: false },
);

/** `PUT /companies/:companyId`. */
export const UpdateCompanyBody = Type.Object(companyFields, { additionalProperties: false });

/** A help entry (docs/product/administration.md#entities Help). */
export const HelpSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    description: Type.String(),
    video: Type.String(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'Help' },
);

export const HelpBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    video: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

/** Announcement priorities (docs/product/automation.md#constants-and-limits): 1 Alta, 2 Média, 3 Baixa. */
export const Priority = Type.Integer({ minimum: 1, maximum: 3 });

/** An announcement (docs/product/automation.md#entities), with a signed address of its image. */
export const AnnouncementSchema = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    text: Type.String(),
    priority: Type.Integer(),
    status: Type.Boolean(),
    mediaPath: Type.Union([Type.String(), Type.Null()]),
    mediaName: Type.Union([Type.String(), Type.Null()]),
    mediaUrl: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'Announcement' },
);

/** `POST /announcements`, `PUT /announcements/:announcementId` (docs/product/automation.md#validation: title and text required). */
export const AnnouncementBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    text: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' }),
    priority: Type.Optional(Priority),
    status: Type.Optional(Type.Boolean()),
    // the documented client sends these back; the attachment is only ever set by media-upload
    mediaPath: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    mediaName: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  },
  { additionalProperties: false },
);

/** Paged lists: `{ records, count, hasMore }`. */
export const Paged = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({ records: Type.Array(item), count: Type.Integer(), hasMore: Type.Boolean() });
