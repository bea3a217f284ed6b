import { AppError, companyEvent, type PluginContext, type RequestSession, User } from '@balcao/plugin-sdk/server';
import type { Knex } from 'knex';
import { ADMIN_ONLY_FIELDS, type CreateUserInput, type UpdateUserInput, type UserJson } from './user-schemas';

/**
 * Users of a company (docs/product/administration.md#entities User, #validation, #calls-and-realtime-events Users; docs/product/roles-and-permissions.md#roles-in-the-inbox, docs/product/tickets-and-inbox.md#constants-and-limits): the list, one user, create,
 * update (with queue membership in the inbox's `userQueues`), delete. Every write invalidates the
 * changed user's cached session, publishes `user.updated` (the inbox re-reads who sees which ticket) and
 * emits `company-{id}-user` with action create, update or delete.
 */

/** Users a page of `GET /users` holds (the inbox's list convention, docs/decisions.md). */
export const USERS_PAGE_SIZE = 40;

/** The platform company (docs/product/tickets-and-inbox.md#states-and-transitions: the company with id 1), whose settings hold the platform-wide switches. */
export const PLATFORM_COMPANY_ID = 1;

type Caller = RequestSession;

const isAdmin = (caller: Caller) => caller.profile === 'admin' || caller.super;

/** `ERR_VALIDATION` for one body field, as the schema validation words it. */
function invalid(field: string, message: string): AppError {
  return new AppError('ERR_VALIDATION', { details: [{ field: `body.${field}`, message }] });
}

/** Escapes `%`, `_` and `\` for a LIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The queues of each user, by user id, in the queues' order. */
async function queuesOf(knex: Knex, companyId: number, userIds: number[]) {
  const byUser = new Map<number, Array<{ id: number; name: string; color: string }>>();
  if (userIds.length === 0) return byUser;
  const rows: Array<{ userId: number; id: number; name: string; color: string }> = await knex('userQueues as uq')
    .join('queues as q', 'q.id', 'uq.queueId')
    .where('uq.companyId', companyId)
    .whereIn('uq.userId', userIds)
    .orderBy([{ column: 'q.orderQueue', nulls: 'last' }, { column: 'q.name' }, { column: 'q.id' }])
    .select('uq.userId', 'q.id', 'q.name', 'q.color');
  for (const { userId, ...queue } of rows) {
    const list = byUser.get(userId) ?? [];
    list.push(queue);
    byUser.set(userId, list);
  }
  return byUser;
}

const iso = (value: Date | string) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

/** Users as the API answers them: queues joined, the avatar as a signed address, no password hash. */
export async function toJson(ctx: PluginContext, companyId: number, users: User[]): Promise<UserJson[]> {
  const queues = await queuesOf(
    ctx.db.knex,
    companyId,
    users.map((user) => user.id),
  );
  return users.map((user) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    super: user.super,
    companyId: user.companyId,
    profileImage: user.profileImage ? ctx.storage.signedUrl(companyId, user.profileImage) : null,
    queues: queues.get(user.id) ?? [],
    whatsappId: user.whatsappId,
    startWork: user.startWork,
    endWork: user.endWork,
    farewellMessage: user.farewellMessage,
    allTicket: user.allTicket,
    allowGroup: user.allowGroup,
    defaultTheme: user.defaultTheme,
    defaultMenu: user.defaultMenu,
    allHistoric: user.allHistoric,
    allUserChat: user.allUserChat,
    userClosePendingTicket: user.userClosePendingTicket,
    showDashboard: user.showDashboard,
    allowRealTime: user.allowRealTime,
    allowConnections: user.allowConnections,
    defaultTicketsManagerWidth: user.defaultTicketsManagerWidth,
    online: user.online,
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  }));
}

async function oneJson(ctx: PluginContext, companyId: number, user: User): Promise<UserJson> {
  return (await toJson(ctx, companyId, [user]))[0] as UserJson;
}

/** `GET /users`: a page of the company's users by name, matching the search in name or e-mail. */
export async function listUsers(ctx: PluginContext, caller: Caller, query: { searchParam?: string; pageNumber?: number }) {
  const page = query.pageNumber ?? 1;
  const search = (query.searchParam ?? '').trim();
  const filtered = () => {
    const builder = User.query();
    if (search) {
      const pattern = `%${escapeLike(search)}%`;
      builder.where((where) => where.whereILike('name', pattern).orWhereILike('email', pattern));
    }
    return builder;
  };
  const [rows, total] = await Promise.all([
    filtered()
      .orderBy([{ column: 'name' }, { column: 'id' }])
      .limit(USERS_PAGE_SIZE)
      .offset((page - 1) * USERS_PAGE_SIZE),
    filtered().resultSize(),
  ]);
  return {
    users: await toJson(ctx, caller.companyId, rows),
    count: total,
    hasMore: page * USERS_PAGE_SIZE < total,
  };
}

/**
 * The user `id` of the caller's company, if the caller may see or change it: an admin any user of the
 * company (only a super user another super user), anyone else only themselves.
 */
async function requireReachable(caller: Caller, id: number, trx?: Knex.Transaction): Promise<User> {
  if (!isAdmin(caller) && id !== caller.userId) throw new AppError('ERR_NO_PERMISSION');
  const user = await User.query(trx).findById(id);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  if (user.super && !caller.super) throw new AppError('ERR_NO_PERMISSION');
  return user;
}

/** `GET /users/:userId`. */
export async function getUser(ctx: PluginContext, caller: Caller, id: number): Promise<UserJson> {
  return oneJson(ctx, caller.companyId, await requireReachable(caller, id));
}

/** Refuses queue ids that aren't queues of the company. */
async function requireCompanyQueues(trx: Knex.Transaction, companyId: number, queueIds: number[]): Promise<void> {
  if (queueIds.length === 0) return;
  const found = await trx('queues').where({ companyId }).whereIn('id', queueIds).select('id');
  if (found.length !== queueIds.length) throw invalid('queueIds', 'must be queues of the company');
}

/**
 * Refuses a default connection that isn't one of the company's. Connections come with the channels
 * plugin (table `whatsapps`); without it no connection exists, so only null is accepted.
 */
async function requireCompanyConnection(trx: Knex.Transaction, companyId: number, connectionId: number | null | undefined) {
  if (connectionId === undefined || connectionId === null) return;
  const exists =
    (await trx.schema.hasTable('whatsapps')) && (await trx('whatsapps').where({ id: connectionId, companyId }).first('id'));
  if (!exists) throw invalid('whatsappId', 'must be a connection of the company');
}

/** Refuses an e-mail another account uses (e-mails are unique across the platform: they are the login). */
async function requireFreeEmail(trx: Knex.Transaction, email: string, exceptUserId?: number): Promise<void> {
  const taken = trx('users').whereRaw('lower(email) = ?', [email]);
  if (exceptUserId !== undefined) taken.whereNot('id', exceptUserId);
  if (await taken.first('id')) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
}

/** The unique index on `lower(email)` settles a race between two writes of one e-mail. */
function isEmailTaken(error: unknown): boolean {
  const pg = error as { code?: string; constraint?: string };
  return pg?.code === '23505' && pg.constraint === 'users_email_unique';
}

/** The trimmed name, 2 to 50 characters of something other than spaces. */
function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 2) throw invalid('name', 'must NOT have fewer than 2 characters');
  return trimmed;
}

/** E-mails are stored lowercased: the login lowercases what is typed (docs/product/administration.md#validation). */
const cleanEmail = (email: string) => email.trim().toLowerCase();

/**
 * Whether the company may create users: the platform's `userCreation` switch (set by the super user on
 * the Settings page, docs/product/roles-and-permissions.md#roles-in-administration) and the company's own must both be enabled. The super user
 * may always create.
 */
async function requireUserCreation(ctx: PluginContext, caller: Caller): Promise<void> {
  if (caller.super) return;
  const [platform, own] = await Promise.all([
    ctx.settings.get(PLATFORM_COMPANY_ID, 'userCreation'),
    ctx.settings.get(caller.companyId, 'userCreation'),
  ]);
  if (platform === 'disabled' || own === 'disabled') throw new AppError('ERR_USER_CREATION_DISABLED');
}

/**
 * Refuses a new user beyond the plan's `users`. The company row is locked first, so two creations at
 * once are counted one after the other.
 */
async function requireRoomForUser(trx: Knex.Transaction, companyId: number): Promise<void> {
  const company = await trx('companies')
    .join('plans', 'plans.id', 'companies.planId')
    .where('companies.id', companyId)
    .forUpdate('companies')
    .first('plans.users as limit');
  const counted = await trx('users').where({ companyId }).count<Array<{ count: string }>>('id as count');
  if (!company || Number(counted[0]?.count ?? 0) >= Number(company.limit)) throw new AppError('ERR_USER_LIMIT_REACHED');
}

/** Refuses a change that leaves the company with no admin (`userId` loses admin rights). */
async function requireAnotherAdmin(trx: Knex.Transaction, companyId: number, userId: number): Promise<void> {
  // the company's admins, locked: two demotions at once can't both see the other as the remaining admin
  const admins = await trx('users').where({ companyId, profile: 'admin' }).forUpdate().select('id');
  if (!admins.some((admin) => admin.id !== userId)) throw new AppError('ERR_LAST_ADMIN');
}

async function setQueues(trx: Knex.Transaction, companyId: number, userId: number, queueIds: number[]): Promise<void> {
  await trx('userQueues').where({ companyId, userId }).delete();
  if (queueIds.length > 0) await trx('userQueues').insert(queueIds.map((queueId) => ({ companyId, userId, queueId })));
}

/** Tells everyone who cares that a user changed: the session cache, the event bus, the company's sockets. */
async function announce(ctx: PluginContext, companyId: number, userId: number, event: object): Promise<void> {
  await ctx.session.invalidateUser(userId);
  await ctx.events.publish('user.updated', { companyId, userId });
  ctx.realtime.emit(companyId, companyEvent(companyId, 'user'), event);
}

/** The admin-only columns of a body (what an admin may set beyond the self-service fields). */
function adminColumns(input: CreateUserInput | UpdateUserInput): Partial<User> {
  const columns: Record<string, unknown> = {};
  for (const field of ADMIN_ONLY_FIELDS) {
    if (field !== 'queueIds' && input[field] !== undefined) columns[field] = input[field];
  }
  return columns as Partial<User>;
}

function selfColumns(input: CreateUserInput | UpdateUserInput): Partial<User> {
  const columns: Partial<User> = {};
  if (input.farewellMessage !== undefined) columns.farewellMessage = input.farewellMessage?.trim() || null;
  if (input.defaultTheme !== undefined) columns.defaultTheme = input.defaultTheme;
  if (input.defaultMenu !== undefined) columns.defaultMenu = input.defaultMenu;
  if (input.defaultTicketsManagerWidth !== undefined) columns.defaultTicketsManagerWidth = input.defaultTicketsManagerWidth;
  return columns;
}

/** `POST /users` (admins): the defaults of docs/product/tickets-and-inbox.md#constants-and-limits for what the body leaves out. */
export async function createUser(ctx: PluginContext, caller: Caller, input: CreateUserInput): Promise<UserJson> {
  await requireUserCreation(ctx, caller);
  const name = cleanName(input.name);
  const email = cleanEmail(input.email);
  const passwordHash = await ctx.passwords.hash(input.password);
  let user: User;
  try {
    user = await ctx.db.transaction(async (trx) => {
      await requireRoomForUser(trx, caller.companyId);
      await requireFreeEmail(trx, email);
      await requireCompanyQueues(trx, caller.companyId, input.queueIds ?? []);
      await requireCompanyConnection(trx, caller.companyId, input.whatsappId);
      const created = await User.query(trx).insertAndFetch({
        ...selfColumns(input),
        ...adminColumns(input),
        name,
        email,
        passwordHash,
      });
      await setQueues(trx, caller.companyId, created.id, input.queueIds ?? []);
      return created;
    });
  } catch (error) {
    if (isEmailTaken(error)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
    throw error;
  }
  const json = await oneJson(ctx, caller.companyId, user);
  await announce(ctx, caller.companyId, user.id, { action: 'create', user: json });
  return json;
}

/**
 * Refuses admin-only fields from a user editing themselves, unless they only repeat the stored value
 * (the documented dialog sends the whole form back).
 */
function requireSelfServiceOnly(current: User, queueIds: number[], input: UpdateUserInput): void {
  for (const field of ADMIN_ONLY_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    const unchanged =
      field === 'queueIds'
        ? [...(value as number[])].sort().join() === [...queueIds].sort().join()
        : value === (current as unknown as Record<string, unknown>)[field];
    if (!unchanged) throw new AppError('ERR_NO_PERMISSION', { field });
  }
}

/** `PUT /users/:userId`: an admin any user of the company; a user only themselves and only their own fields. */
export async function updateUser(ctx: PluginContext, caller: Caller, id: number, input: UpdateUserInput): Promise<UserJson> {
  const passwordHash = input.password !== undefined ? await ctx.passwords.hash(input.password) : undefined;
  let user: User;
  try {
    user = await ctx.db.transaction(async (trx) => {
      const current = await requireReachable(caller, id, trx);
      if (!isAdmin(caller)) {
        const queueIds = (await trx('userQueues').where({ companyId: caller.companyId, userId: id }).select('queueId')).map(
          (row) => row.queueId as number,
        );
        requireSelfServiceOnly(current, queueIds, input);
      }
      const columns: Partial<User> = { ...selfColumns(input), ...(isAdmin(caller) ? adminColumns(input) : {}) };
      if (input.name !== undefined) columns.name = cleanName(input.name);
      if (input.email !== undefined) {
        columns.email = cleanEmail(input.email);
        await requireFreeEmail(trx, columns.email, id);
      }
      if (passwordHash !== undefined) columns.passwordHash = passwordHash;
      if (current.profile === 'admin' && columns.profile === 'user') await requireAnotherAdmin(trx, caller.companyId, id);
      if (isAdmin(caller)) {
        await requireCompanyConnection(trx, caller.companyId, input.whatsappId);
        if (input.queueIds !== undefined) {
          await requireCompanyQueues(trx, caller.companyId, input.queueIds);
          await setQueues(trx, caller.companyId, id, input.queueIds);
        }
      }
      return User.query(trx).patchAndFetchById(id, { ...columns, updatedAt: new Date() });
    });
  } catch (error) {
    if (isEmailTaken(error)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
    throw error;
  }
  // a password set by someone else (an admin) ends the user's sessions: whoever knew the old one is out
  if (passwordHash !== undefined && id !== caller.userId) await ctx.session.endUserSessions(id);
  const json = await oneJson(ctx, caller.companyId, user);
  await announce(ctx, caller.companyId, id, { action: 'update', user: json });
  return json;
}

/**
 * `DELETE /users/:userId` (admins). Nobody deletes themselves, nor the company's last admin. The user's
 * open tickets go back to pending first, through the inbox (so their viewers are told), instead of
 * staying open with nobody on them.
 */
export async function deleteUser(ctx: PluginContext, caller: Caller, id: number): Promise<void> {
  if (id === caller.userId) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const target = await requireReachable(caller, id);
  // refused before any ticket moves (and checked again, under lock, where the row goes)
  if (target.profile === 'admin') await ctx.db.transaction((trx) => requireAnotherAdmin(trx, caller.companyId, id));
  const openTickets: Array<{ id: number }> = await ctx.db
    .knex('tickets')
    .where({ companyId: caller.companyId, userId: id, status: 'open' })
    .select('id');
  const inbox = ctx.services.use('inbox');
  for (const ticket of openTickets) {
    await inbox.applyTicketChange({
      ticketId: ticket.id,
      status: 'pending',
      userId: null,
      logs: [{ type: 'pending', userId: null }],
      expect: { userId: id, status: 'open' },
    });
  }
  await ctx.db.transaction(async (trx) => {
    if (target.profile === 'admin') await requireAnotherAdmin(trx, caller.companyId, id);
    await User.query(trx).deleteById(id);
  });
  if (target.profileImage) await ctx.storage.delete(caller.companyId, target.profileImage).catch(() => {});
  await announce(ctx, caller.companyId, id, { action: 'delete', userId: id });
}

/** Stores a user's new avatar (already checked) and drops the old file. */
export async function setAvatar(ctx: PluginContext, caller: Caller, id: number, key: string): Promise<UserJson> {
  const current = await requireReachable(caller, id);
  const user = await User.query().patchAndFetchById(id, { profileImage: key, updatedAt: new Date() });
  if (current.profileImage && current.profileImage !== key) {
    await ctx.storage.delete(caller.companyId, current.profileImage).catch(() => {});
  }
  const json = await oneJson(ctx, caller.companyId, user);
  await announce(ctx, caller.companyId, id, { action: 'update', user: json });
  return json;
}

/** Whether the caller may change user `id`'s avatar (before reading the upload). */
export async function requireAvatarTarget(caller: Caller, id: number): Promise<void> {
  await requireReachable(caller, id);
}
