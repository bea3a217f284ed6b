import {
  AppError,
  type ChannelConnectionInfo,
  type ChannelDriver,
  type ChannelRegistration,
  type OutboundMessage,
  type OutboundTarget,
} from '@balcao/plugin-sdk/server';
import { accountOfConnection, claimAccount, type MetaAccount, requireAccountFree, setAccountActive } from '../accounts';
import type { MetaContext } from '../config';
import { GraphError, graphOf } from '../graph/client';
import { mapGraphError } from '../graph/errors';
import { contactProfile } from '../profiles';
import { sendFailure } from '../retries';
import { seal, secretsKey, unseal } from '../secrets';
import { abandonAttempt, beginAttempt, callbackDataOf, finishAttempt } from '../send-attempts';
import { removeSubscribedAccount, subscribeApp } from '../subscriptions';
import { HUMAN_AGENT_MS, lastInbound, WINDOW_MS, windowOpen } from '../windows';

const GRAPH_ID = /^\d{5,32}$/;
/** The page webhook fields the app subscribes to: messages, echoes, reactions, receipts, referrals, buttons. */
export const PAGE_FIELDS =
  'messages,message_echoes,message_reactions,message_reads,message_deliveries,messaging_referrals,messaging_postbacks';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

const ATTACHMENT: Record<string, string> = { image: 'image', video: 'video', audio: 'audio' };

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** Checks a page token against the page (and its linked Instagram account, for an Instagram connection). */
async function checkPage(ctx: MetaContext, pageId: string, token: string): Promise<{ name: string; instagramId: string | null }> {
  try {
    const page = await graphOf(ctx).call<{ name?: string; instagram_business_account?: { id?: string } }>(pageId, {
      token,
      query: { fields: 'id,name,instagram_business_account' },
    });
    return { name: page.name ?? pageId, instagramId: page.instagram_business_account?.id ?? null };
  } catch (error) {
    const { code } = mapGraphError(error);
    if (error instanceof GraphError && error.code === 100) throw new AppError('ERR_META_PAGE_NOT_FOUND');
    throw new AppError(code === 'ERR_META_UNAVAILABLE' || code === 'ERR_META_RATE_LIMITED' ? code : 'ERR_META_TOKEN_INVALID');
  }
}

/**
 * Makes a page (or its Instagram account) the connection's: claims its id on the platform, subscribes the
 * app to the page's webhooks (they reach us only then) and records the id as the connection's number.
 */
export async function activatePage(
  ctx: MetaContext,
  channel: 'facebook' | 'instagram',
  connection: { id: number; companyId: number },
  page: { pageId: string; externalId: string; token: string; tokenSealed: string },
): Promise<void> {
  await claimAccount(ctx, {
    companyId: connection.companyId,
    whatsappId: connection.id,
    channel,
    externalId: page.externalId,
    tokenSealed: page.tokenSealed,
    details: { pageId: page.pageId },
  });
  await subscribeApp(ctx, page.pageId, page.token, { subscribed_fields: PAGE_FIELDS });
  await ctx.services.use('channels').updateStatus(connection.companyId, connection.id, { number: page.externalId });
}

/**
 * Messenger (`facebook`) and Instagram (`instagram`) channels: a connection is a page (or the Instagram
 * account linked to it), its page token sealed in `channelConfig`. Sends go through the page's Send API;
 * outside the 24-hour window an agent's message carries the HUMAN_AGENT tag, allowed for 7 days.
 */
export function messengerChannel(ctx: MetaContext, channel: 'facebook' | 'instagram'): ChannelRegistration {
  const key = secretsKey(ctx);

  async function accountFor(target: OutboundTarget): Promise<MetaAccount> {
    const account = target.whatsappId === null ? null : await accountOfConnection(ctx, target.companyId, target.whatsappId);
    if (!account?.active) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return account;
  }

  /** The Send API node: the page for Messenger, the Instagram account for Instagram. */
  const node = (account: MetaAccount) => account.externalId;

  function recipientOf(target: OutboundTarget): string {
    const id = target.contact.identifiers.find((candidate) => /^\d{5,32}$/.test(candidate));
    if (!id) throw new AppError('ERR_META_SEND_REFUSED');
    return id;
  }

  async function messagingType(account: MetaAccount, recipient: string): Promise<Record<string, string>> {
    const last = await lastInbound(ctx, account.companyId, account.whatsappId, recipient);
    if (windowOpen(last, WINDOW_MS)) return { messaging_type: 'RESPONSE' };
    if (windowOpen(last, HUMAN_AGENT_MS)) return { messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' };
    throw new AppError('ERR_META_WINDOW_CLOSED');
  }

  async function sendBody(account: MetaAccount, recipient: string, message: OutboundMessage): Promise<string> {
    const graph = graphOf(ctx);
    const common: Record<string, unknown> = { recipient: { id: recipient }, ...(await messagingType(account, recipient)) };
    if (message.quoted?.channelMessageId) common.reply_to = { mid: message.quoted.channelMessageId };
    // the page's echo of the message carries this back: how a try cut off by a crash learns the Graph's id
    const metadata = callbackDataOf(message.messageId);
    let answer: { message_id?: string };
    if (message.media) {
      const stream = await message.media.open();
      if (!stream) throw new AppError('ERR_META_SEND_REFUSED');
      const mimetype = message.media.mimetype ?? 'application/octet-stream';
      const type = ATTACHMENT[message.mediaType] ?? 'file';
      answer = await graph.call(`${node(account)}/messages`, {
        method: 'POST',
        token: account.token,
        form: {
          fields: Object.fromEntries(
            Object.entries({ ...common, message: { attachment: { type, payload: { is_reusable: false } }, metadata } }).map(
              ([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)],
            ),
          ),
          file: { name: message.media.fileName, data: await readAll(stream), mimetype },
          fileField: 'filedata',
        },
      });
      // Messenger's attachments carry no caption: the text follows as a message of its own. The message is
      // the attachment (its id is the one kept): a refused text is logged, never a reason to send the
      // attachment again; its echo is skipped as every echo of this app is (messenger/webhook.ts)
      if (message.body.trim() && answer.message_id)
        await graph
          .call(`${node(account)}/messages`, {
            method: 'POST',
            token: account.token,
            json: { ...common, message: { text: message.body } },
          })
          .catch((error: unknown) =>
            ctx.log.warn({ err: error, messageId: message.messageId }, 'the Graph refused the text after an attachment'),
          );
    } else {
      answer = await graph.call(`${node(account)}/messages`, {
        method: 'POST',
        token: account.token,
        json: { ...common, message: { text: message.body, metadata } },
      });
    }
    if (!answer.message_id) throw new GraphError(502, -1, 'the send answered no message id');
    return answer.message_id;
  }

  const driver: ChannelDriver = {
    async send(target, message) {
      const account = await accountFor(target);
      const recipient = recipientOf(target);
      // recorded before the Graph is called (docs/meta.md "Sends cut off by a crash"): a try after a crash
      // between the Graph's answer and the inbox's record answers the id the page's echo told, waits for
      // it, or — no echo within SEND_RECONCILE_MS — fails the message for the agent instead of sending blind
      const earlier = await beginAttempt(ctx, account, message.messageId, 'unconfirmed');
      if (earlier.kind === 'sent') return { channelMessageId: earlier.channelMessageId, ack: 1 };
      if (earlier.kind === 'unconfirmed') {
        ctx.log.warn({ messageId: message.messageId }, 'a Messenger send cut off by a crash had no echo: failed for the agent');
        throw new AppError('ERR_META_SEND_UNCONFIRMED');
      }
      if (earlier.kind === 'unknown') {
        const pending = new GraphError(0, -1, 'an earlier try of this message is not reconciled yet');
        throw await sendFailure(ctx, target.companyId, message.messageId, pending);
      }
      try {
        const id = await sendBody(account, recipient, message);
        await finishAttempt(ctx, account, message.messageId, id);
        return { channelMessageId: id, ack: 1 };
      } catch (error) {
        await abandonAttempt(ctx, account, message.messageId, error);
        throw await sendFailure(ctx, target.companyId, message.messageId, error);
      }
    },
    async react(target, channelMessageId, reaction) {
      const account = await accountFor(target);
      try {
        await graphOf(ctx).call(`${node(account)}/messages`, {
          method: 'POST',
          token: account.token,
          json: {
            recipient: { id: recipientOf(target) },
            sender_action: reaction ? 'react' : 'unreact',
            payload: { message_id: channelMessageId, ...(reaction ? { reaction } : {}) },
          },
        });
      } catch (error) {
        throw new AppError(mapGraphError(error).code as 'ERR_META_UNAVAILABLE');
      }
    },
    async markRead(target) {
      const account = await accountFor(target);
      await graphOf(ctx)
        .call(`${node(account)}/messages`, {
          method: 'POST',
          token: account.token,
          json: { recipient: { id: recipientOf(target) }, sender_action: 'mark_seen' },
        })
        .catch((error: unknown) => ctx.log.info({ err: error, whatsappId: account.whatsappId }, 'the Graph refused a read mark'));
    },
    async profilePicture(whatsappId, identifier) {
      const row = await ctx.db.knex('metaAccounts').where({ whatsappId }).first('companyId');
      const account = row ? await accountOfConnection(ctx, Number(row.companyId), whatsappId) : null;
      if (!account) return null;
      return (await contactProfile(ctx, account, identifier))?.picture ?? null;
    },
  };

  return {
    channel,
    planFlag: channel === 'facebook' ? 'useFacebook' : 'useInstagram',
    async prepareConfig(input, previous, scope) {
      const pageId = text(input.pageId) || text(previous?.pageId);
      if (!GRAPH_ID.test(pageId)) throw new AppError('ERR_META_CONFIG_INVALID');
      const typed = text(input.pageToken);
      const kept = typeof previous?.tokenSealed === 'string' ? unseal(key, previous.tokenSealed) : null;
      const token = typed || kept;
      if (!token || token.length > 1024) throw new AppError('ERR_META_CONFIG_INVALID');
      const page = await checkPage(ctx, pageId, token);
      const externalId = channel === 'facebook' ? pageId : page.instagramId;
      if (!externalId) throw new AppError('ERR_META_PAGE_NOT_FOUND');
      await requireAccountFree(ctx, channel, externalId, scope.connectionId);
      return {
        pageId,
        pageName: page.name,
        ...(channel === 'instagram'
          ? { instagramId: externalId, username: text(input.username) || text(previous?.username) }
          : {}),
        tokenSealed: typed || !previous?.tokenSealed ? seal(key, token) : String(previous.tokenSealed),
      };
    },
    publicConfig(config) {
      return {
        pageId: config.pageId ?? '',
        pageName: config.pageName ?? '',
        ...(channel === 'instagram' ? { instagramId: config.instagramId ?? '', username: config.username ?? '' } : {}),
        hasToken: typeof config.tokenSealed === 'string',
      };
    },
    async start(connection: ChannelConnectionInfo) {
      const config = connection.channelConfig;
      const sealed = typeof config.tokenSealed === 'string' ? config.tokenSealed : null;
      const token = sealed ? unseal(key, sealed) : null;
      const pageId = text(config.pageId);
      const externalId = channel === 'facebook' ? pageId : text(config.instagramId);
      if (!sealed || !token || !pageId || !externalId) throw new AppError('ERR_META_CONFIG_INVALID');
      await checkPage(ctx, pageId, token);
      await activatePage(ctx, channel, connection, { pageId, externalId, token, tokenSealed: sealed });
      return 'CONNECTED';
    },
    async stop(connection) {
      await setAccountActive(ctx, connection.companyId, connection.id, false);
      return 'DISCONNECTED';
    },
    async remove(connection) {
      await removeSubscribedAccount(ctx, connection.companyId, connection.id, 'pageId');
    },
    driver,
  };
}
