import { AppError } from '@balcao/plugin-sdk/server';
import { accountOfConnection, removeAccount } from './accounts';
import type { MetaContext } from './config';
import { graphOf } from './graph/client';
import { mapGraphError } from './graph/errors';

/** Which detail of an account names the node its webhooks come from: the page, the WhatsApp business account. */
export type SubscribedNode = 'pageId' | 'businessAccountId';

/** Subscribes this app to a node's webhooks: Meta sends them to the app only after it. */
export async function subscribeApp(ctx: MetaContext, node: string, token: string, query?: Record<string, string>): Promise<void> {
  try {
    await graphOf(ctx).call(`${node}/subscribed_apps`, { method: 'POST', token, ...(query ? { query } : {}) });
  } catch (error) {
    throw new AppError(mapGraphError(error).code as 'ERR_META_UNAVAILABLE');
  }
}

/**
 * Removes a connection's account and, when no other connection still rests on the same node (a page shared
 * by its Messenger and Instagram connections), unsubscribes this app from it: Meta would otherwise go on
 * sending its webhooks to a shared app that drops them. A refused unsubscribe is logged; the removal goes on.
 */
export async function removeSubscribedAccount(
  ctx: MetaContext,
  companyId: number,
  whatsappId: number,
  detail: SubscribedNode,
): Promise<void> {
  const account = await accountOfConnection(ctx, companyId, whatsappId);
  await removeAccount(ctx, companyId, whatsappId);
  const node = account?.details[detail];
  if (!account || !node) return;
  const others = await ctx.db.knex('metaAccounts').whereRaw('details->>? = ?', [detail, node]).first('whatsappId');
  if (others) return;
  await graphOf(ctx)
    .call(`${node}/subscribed_apps`, { method: 'DELETE', token: account.token })
    .catch((error: unknown) => ctx.log.warn({ err: error, whatsappId }, 'the Graph refused to unsubscribe the app'));
}
