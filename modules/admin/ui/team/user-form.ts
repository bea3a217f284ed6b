import type { AdminUser, Toggle, UserBody } from './api';

/** The user dialog's form values (docs/product/administration.md#entities User). */
export interface UserFormValues {
  name: string;
  email: string;
  password: string;
  profile: 'admin' | 'user';
  queueIds: number[];
  startWork: string;
  endWork: string;
  farewellMessage: string;
  defaultTheme: 'light' | 'dark';
  defaultMenu: 'open' | 'closed';
  allTicket: 'enable' | 'disable';
  allowGroup: boolean;
  allHistoric: boolean;
  allUserChat: boolean;
  userClosePendingTicket: boolean;
  showDashboard: boolean;
  allowRealTime: boolean;
  allowConnections: boolean;
}

/** The permission fields stored as `enabled`/`disabled`, shown as switches. */
export const TOGGLE_FIELDS = [
  'allHistoric',
  'allUserChat',
  'userClosePendingTicket',
  'showDashboard',
  'allowRealTime',
  'allowConnections',
] as const;

/** A problem of a form field, as a key of `users.validation`, or null. */
export type FieldProblem = 'required' | 'tooShort' | 'tooLong' | 'invalidEmail' | null;

/** docs/product/administration.md#validation: name required, 2 to 50 characters. */
export function nameProblem(value: string | undefined): FieldProblem {
  const name = (value ?? '').trim();
  if (!name) return 'required';
  if (name.length < 2) return 'tooShort';
  return name.length > 50 ? 'tooLong' : null;
}

/** docs/product/administration.md#validation: e-mail required and valid. */
export function emailProblem(value: string | undefined): FieldProblem {
  const email = (value ?? '').trim();
  if (!email) return 'required';
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? null : 'invalidEmail';
}

/** docs/product/administration.md#validation: password 5 to 50 characters; required for a new user, blank keeps the old one. */
export function passwordProblem(value: string | undefined, isNew: boolean): FieldProblem {
  const password = value ?? '';
  if (!password) return isNew ? 'required' : null;
  if (password.length < 5) return 'tooShort';
  return password.length > 50 ? 'tooLong' : null;
}

const toggle = (on: boolean): Toggle => (on ? 'enabled' : 'disabled');

/** The form's starting values: the user's, or the defaults of docs/product/tickets-and-inbox.md#constants-and-limits for a new one. */
export function initialValues(user: AdminUser | null): UserFormValues {
  return {
    name: user?.name ?? '',
    email: user?.email ?? '',
    password: '',
    profile: user?.profile ?? 'user',
    queueIds: user?.queues.map((queue) => queue.id) ?? [],
    startWork: user?.startWork ?? '00:00',
    endWork: user?.endWork ?? '23:59',
    farewellMessage: user?.farewellMessage ?? '',
    defaultTheme: user?.defaultTheme ?? 'light',
    defaultMenu: user?.defaultMenu ?? 'open',
    allTicket: user?.allTicket ?? 'disable',
    allowGroup: user?.allowGroup ?? false,
    allHistoric: user?.allHistoric === 'enabled',
    allUserChat: user?.allUserChat === 'enabled',
    userClosePendingTicket: (user?.userClosePendingTicket ?? 'enabled') === 'enabled',
    showDashboard: user?.showDashboard === 'enabled',
    allowRealTime: user?.allowRealTime === 'enabled',
    allowConnections: user?.allowConnections === 'enabled',
  };
}

/**
 * The body the dialog sends: the user's own fields always; the admin-only ones (profile, queues, working
 * hours, permissions: docs/product/roles-and-permissions.md#roles-in-the-inbox) only when an admin edits. A blank password is left out (kept).
 */
export function userBody(values: UserFormValues, asAdmin: boolean): UserBody {
  const body: UserBody = {
    name: values.name.trim(),
    email: values.email.trim(),
    farewellMessage: values.farewellMessage.trim() || null,
    defaultTheme: values.defaultTheme,
    defaultMenu: values.defaultMenu,
  };
  if (values.password) body.password = values.password;
  if (!asAdmin) return body;
  return {
    ...body,
    profile: values.profile,
    queueIds: values.queueIds,
    startWork: values.startWork,
    endWork: values.endWork,
    allTicket: values.allTicket,
    allowGroup: values.allowGroup,
    ...Object.fromEntries(TOGGLE_FIELDS.map((field) => [field, toggle(values[field])])),
  };
}
