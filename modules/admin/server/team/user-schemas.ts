import { Id, PageNumber, type Static, StrictObject, Type } from '@balcao/plugin-sdk/server';

/** Request and response schemas of the users routes (docs/product/administration.md#entities User, #validation, #calls-and-realtime-events). */

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** Most permission fields are `enabled` / `disabled` strings (docs/product/tickets-and-inbox.md#entities). */
const Toggle = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);
/** A time of day as the dialog enters it (HH:MM, 00:00 to 23:59). */
const TimeOfDay = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });

const Name = Type.String({ minLength: 2, maxLength: 50 });
const Email = Type.String({ format: 'email', maxLength: 255 });
/** docs/product/administration.md#validation: the user editor's password has 5 to 50 characters. */
const Password = Type.String({ minLength: 5, maxLength: 50 });

/** Fields an admin may set on any user of the company, and a user on themselves (docs/product/roles-and-permissions.md#roles-in-the-inbox). */
const SelfFields = {
  farewellMessage: Type.Optional(Nullable(Type.String({ maxLength: 5_000 }))),
  defaultTheme: Type.Optional(Type.Union([Type.Literal('light'), Type.Literal('dark')])),
  defaultMenu: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
  defaultTicketsManagerWidth: Type.Optional(Type.Integer({ minimum: 404, maximum: 700 })),
};

/**
 * Fields only an admin sets (docs/product/roles-and-permissions.md#roles-in-the-inbox: profile, queues, connection, working hours and permission fields;
 * docs/product/administration.md#validation: user-modal:editProfile, user-modal:editQueues).
 */
const AdminFields = {
  profile: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('user')])),
  queueIds: Type.Optional(Type.Array(Id, { maxItems: 200, uniqueItems: true })),
  whatsappId: Type.Optional(Nullable(Id)),
  startWork: Type.Optional(TimeOfDay),
  endWork: Type.Optional(TimeOfDay),
  allTicket: Type.Optional(Type.Union([Type.Literal('enable'), Type.Literal('disable')])),
  allowGroup: Type.Optional(Type.Boolean()),
  allHistoric: Type.Optional(Toggle),
  allUserChat: Type.Optional(Toggle),
  userClosePendingTicket: Type.Optional(Toggle),
  showDashboard: Type.Optional(Toggle),
  allowRealTime: Type.Optional(Toggle),
  allowConnections: Type.Optional(Toggle),
};

/** The admin-only field names, for the self-edit check. */
export const ADMIN_ONLY_FIELDS = Object.keys(AdminFields) as Array<keyof typeof AdminFields>;

/** `companyId`: the documented client sends it; the company is always the session's. */
const SpecCompanyId = { companyId: Type.Optional(Id) };

export const CreateUserBody = StrictObject({
  name: Name,
  email: Email,
  password: Password,
  ...SelfFields,
  ...AdminFields,
  ...SpecCompanyId,
});
export type CreateUserInput = Static<typeof CreateUserBody>;

export const UpdateUserBody = StrictObject({
  name: Type.Optional(Name),
  email: Type.Optional(Email),
  password: Type.Optional(Password),
  ...SelfFields,
  ...AdminFields,
  ...SpecCompanyId,
});
export type UpdateUserInput = Static<typeof UpdateUserBody>;

export const UserListQuery = StrictObject({
  searchParam: Type.Optional(Type.String({ maxLength: 200 })),
  pageNumber: Type.Optional(PageNumber),
});

export const UserIdParams = StrictObject({ userId: Id });

const QueueRef = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() });

/** A user as the administration shows it: never the password hash; `profileImage` a signed address. */
export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    profile: Type.String(),
    super: Type.Boolean(),
    companyId: Type.Integer(),
    profileImage: Nullable(Type.String()),
    queues: Type.Array(QueueRef),
    whatsappId: Nullable(Type.Integer()),
    startWork: Type.String(),
    endWork: Type.String(),
    farewellMessage: Nullable(Type.String()),
    allTicket: Type.String(),
    allowGroup: Type.Boolean(),
    defaultTheme: Type.String(),
    defaultMenu: Type.String(),
    allHistoric: Type.String(),
    allUserChat: Type.String(),
    userClosePendingTicket: Type.String(),
    showDashboard: Type.String(),
    allowRealTime: Type.String(),
    allowConnections: Type.String(),
    defaultTicketsManagerWidth: Type.Integer(),
    online: Type.Boolean(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: 'User' },
);
export type UserJson = Static<typeof UserSchema>;

export const UserPageSchema = Type.Object({
  users: Type.Array(UserSchema),
  count: Type.Integer(),
  hasMore: Type.Boolean(),
});
