import { ErrorResponse, StrictObject, Type } from '@balcao/plugin-sdk/server';

const Toggle = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);

/** The session user of docs/product/tickets-and-inbox.md#entities (features may add fields). */
export const SessionUserSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    companyId: Type.Integer(),
    profile: Type.Union([Type.Literal('admin'), Type.Literal('user')]),
    super: Type.Boolean(),
    showDashboard: Toggle,
    allowRealTime: Toggle,
    allowConnections: Toggle,
    allTicket: Type.Union([Type.Literal('enable'), Type.Literal('disable')]),
    allowGroup: Type.Boolean(),
    allHistoric: Toggle,
    allUserChat: Toggle,
    userClosePendingTicket: Toggle,
    defaultTheme: Type.Union([Type.Literal('light'), Type.Literal('dark')]),
    defaultMenu: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
    defaultTicketsManagerWidth: Type.Integer(),
    profileImage: Type.Union([Type.String(), Type.Null()]),
    online: Type.Boolean(),
    company: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      dueDate: Type.String(),
      companieSettings: Type.Array(Type.Object({ key: Type.String(), value: Type.String() })),
    }),
    queues: Type.Array(
      Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() }, { additionalProperties: true }),
    ),
    /** The server's verdict: the company's due date has passed by the server's calendar (never for the super user). */
    expired: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

export const AuthResponseSchema = Type.Object({ token: Type.String(), user: SessionUserSchema });

export const LoginBody = StrictObject({
  email: Type.String({ minLength: 3, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 255 }),
  remember: Type.Optional(Type.Boolean()),
});

/** docs/product/administration.md#validation Signup: name and companyName 2–50, password 5–50, valid email, phone and plan required. */
export const SignupBody = StrictObject({
  name: Type.String({ minLength: 2, maxLength: 50 }),
  email: Type.String({ format: 'email', maxLength: 255 }),
  password: Type.String({ minLength: 5, maxLength: 50 }),
  phone: Type.String({ minLength: 1, maxLength: 30 }),
  companyName: Type.String({ minLength: 2, maxLength: 50 }),
  planId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  /** Sent by the documented client; a new company's id is chosen by the server, so it is ignored. */
  companyId: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 2_147_483_647 }), Type.Null()])),
});

export const SignupResponse = Type.Object({
  companyId: Type.Integer(),
  userId: Type.Integer(),
  dueDate: Type.String(),
});

export const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
