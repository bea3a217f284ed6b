import { AppError } from '@balcao/plugin-sdk/server';
import type { MetaContext } from './config';
import { secretsKey, unseal } from './secrets';

/** The Meta channels. */
export type MetaChannel = 'whatsappapi' | 'facebook' | 'instagram';

/** A connection as the Graph knows it (`metaAccounts`). */
export interface MetaAccount {
  companyId: number;
  whatsappId: number;
  channel: MetaChannel;
  externalId: string;
  active: boolean;
  /** The token, unsealed. */
  token: string;
  details: Record<string, string>;
}

// webhooks name the same few ids over and over: a short cache keeps the answer within Meta's patience
const CACHE_MS = 5_000;
/**
 * How long a webhook's lookup answers from an entry older than CACHE_MS while one read refreshes it in the
 * background: a busy account's deliveries never wait for the database. Changes made by this process
 * forget the entry at once; another process's, within CACHE_MS and the one read after it. The jobs read
 * the account again before storing anything (`accountOfConnection`).
 */
const STALE_MS = 60_000;
const byExternal = new Map<string, { at: number; account: MetaAccount | null }>();
const refreshing = new Map<string, Promise<MetaAccount | null>>();
const byConnection = new Map<number, { at: number; account: MetaAccount | null }>();

function accountOf(ctx: MetaContext, row: Record<string, unknown> | undefined): MetaAccount | null {
  if (!row) return null;
  const token = unseal(secretsKey(ctx), String(row.tokenSealed));
  if (token === null) {
    ctx.log.warn({ whatsappId: row.whatsappId }, 'a Meta token does not unseal under META_SECRETS_KEY');
    return null;
  }
  return {
    companyId: Number(row.companyId),
    whatsappId: Number(row.whatsappId),
    channel: row.channel as MetaChannel,
    externalId: String(row.externalId),
    active: Boolean(row.active),
    token,
    details: (row.details ?? {}) as Record<string, string>,
  };
}

/** The connection a webhook's id names (any company: the id itself is the routing key), or null. */
export async function findAccount(ctx: MetaContext, channel: MetaChannel, externalId: string): Promise<MetaAccount | null> {
  const key = `${channel}:${externalId}`;
  const cached = byExternal.get(key);
  const age = cached ? Date.now() - cached.at : Number.POSITIVE_INFINITY;
  if (cached && age < CACHE_MS) return cached.account;
  // one read per id at a time, however many deliveries ask meanwhile
  let read = refreshing.get(key);
  if (!read) {
    const started = Date.now();
    read = ctx.db
      .knex('metaAccounts')
      .where({ channel, externalId })
      .first()
      .then((row) => {
        const account = accountOf(ctx, row);
        // a change made while the read was out (`forget`) wins over what the read found
        if ((forgotten.get(key) ?? -1) < started) byExternal.set(key, { at: Date.now(), account });
        return account;
      })
      .finally(() => refreshing.delete(key));
    refreshing.set(key, read);
  }
  if (cached && age < STALE_MS) {
    read.catch((error: unknown) => ctx.log.warn({ err: error, channel }, 'a Meta account could not be read again'));
    return cached.account;
  }
  return read;
}

/** The Graph account of a connection of the company, or null. */
export async function accountOfConnection(ctx: MetaContext, companyId: number, whatsappId: number): Promise<MetaAccount | null> {
  const cached = byConnection.get(whatsappId);
  if (cached && Date.now() - cached.at < CACHE_MS && cached.account?.companyId === companyId) return cached.account;
  const account = accountOf(ctx, await ctx.db.knex('metaAccounts').where({ companyId, whatsappId }).first());
  byConnection.set(whatsappId, { at: Date.now(), account });
  return account;
}

/** When each webhook id was last forgotten (a read that started before must not cache what it found). */
const forgotten = new Map<string, number>();

function forget(whatsappId: number, channel?: string, externalId?: string): void {
  byConnection.delete(whatsappId);
  const now = Date.now();
  if (channel && externalId) {
    byExternal.delete(`${channel}:${externalId}`);
    forgotten.set(`${channel}:${externalId}`, now);
  } else {
    for (const key of new Set([...byExternal.keys(), ...refreshing.keys()])) forgotten.set(key, now);
    byExternal.clear();
  }
}

/**
 * Refuses an id connected already by another connection (of any company): one number, page or account is
 * connected once on the whole platform.
 */
export async function requireAccountFree(
  ctx: MetaContext,
  channel: MetaChannel,
  externalId: string,
  whatsappId: number | null,
): Promise<void> {
  const taken = await ctx.db.knex('metaAccounts').where({ channel, externalId }).first('whatsappId');
  if (taken && Number(taken.whatsappId) !== whatsappId) throw new AppError('ERR_META_ACCOUNT_IN_USE');
}

/**
 * Records (or refreshes) the account of a connection being started. The unique (channel, externalId)
 * settles a race between two companies: the second is refused with ERR_META_ACCOUNT_IN_USE.
 */
export async function claimAccount(
  ctx: MetaContext,
  input: {
    companyId: number;
    whatsappId: number;
    channel: MetaChannel;
    externalId: string;
    tokenSealed: string;
    details: Record<string, string>;
  },
): Promise<void> {
  await requireAccountFree(ctx, input.channel, input.externalId, input.whatsappId);
  try {
    await ctx.db
      .knex('metaAccounts')
      .insert({ ...input, details: JSON.stringify(input.details), active: true })
      .onConflict('whatsappId')
      .merge(['channel', 'externalId', 'tokenSealed', 'details', 'active']);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new AppError('ERR_META_ACCOUNT_IN_USE');
    throw error;
  }
  forget(input.whatsappId);
}

/** A stopped connection keeps its id (no one else takes it meanwhile) but its webhooks are dropped. */
export async function setAccountActive(ctx: MetaContext, companyId: number, whatsappId: number, active: boolean): Promise<void> {
  await ctx.db.knex('metaAccounts').where({ companyId, whatsappId }).update({ active });
  forget(whatsappId);
}

/** A saved token reaches a running connection at once. */
export async function updateAccountToken(
  ctx: MetaContext,
  companyId: number,
  whatsappId: number,
  tokenSealed: string,
): Promise<void> {
  await ctx.db.knex('metaAccounts').where({ companyId, whatsappId }).update({ tokenSealed });
  forget(whatsappId);
}

export async function removeAccount(ctx: MetaContext, companyId: number, whatsappId: number): Promise<void> {
  await ctx.db.knex('metaAccounts').where({ companyId, whatsappId }).delete();
  forget(whatsappId);
}
