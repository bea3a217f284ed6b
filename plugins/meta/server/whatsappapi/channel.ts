import {
  AppError,
  type ChannelConnectionInfo,
  type ChannelDriver,
  type ChannelRegistration,
  type OutboundMessage,
  type OutboundTarget,
} from '@balcao/plugin-sdk/server';
import {
  accountOfConnection,
  claimAccount,
  type MetaAccount,
  requireAccountFree,
  setAccountActive,
  updateAccountToken,
} from '../accounts';
import type { MetaContext } from '../config';
import { GraphError, graphOf } from '../graph/client';
import { mapGraphError } from '../graph/errors';
import { sendFailure } from '../retries';
import { seal, secretsKey, unseal } from '../secrets';
import { abandonAttempt, beginAttempt, callbackDataOf, finishAttempt } from '../send-attempts';
import { removeSubscribedAccount, subscribeApp } from '../subscriptions';
import { lastInbound, windowOpen } from '../windows';
import { templateBody, templateOf } from './templates';

const GRAPH_ID = /^\d{5,32}$/;

/** The number as the Graph describes it (the answer to the token check). */
interface PhoneNumberInfo {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
}

/** What the WhatsApp Cloud API's send answers. */
interface SendAnswer {
  messages?: Array<{ id?: string }>;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Checks a token against the number: the Graph answers the number only to a token allowed to use it. */
async function checkNumber(ctx: MetaContext, phoneNumberId: string, token: string): Promise<PhoneNumberInfo> {
  try {
    return await graphOf(ctx).call<PhoneNumberInfo>(phoneNumberId, {
      token,
      query: { fields: 'id,display_phone_number,verified_name' },
    });
  } catch (error) {
    const { code } = mapGraphError(error);
    if (error instanceof GraphError && error.code === 100) throw new AppError('ERR_META_CONFIG_INVALID');
    throw new AppError(code === 'ERR_META_UNAVAILABLE' || code === 'ERR_META_RATE_LIMITED' ? code : 'ERR_META_TOKEN_INVALID');
  }
}

/** The digits WhatsApp Cloud addresses a contact by (its wa_id). */
export function recipientOf(target: OutboundTarget): string {
  const number = target.contact.number?.replace(/\D/g, '');
  if (number) return number;
  const identifier = target.contact.identifiers.find((candidate) => /^\d{6,20}$/.test(candidate));
  if (!identifier) throw new AppError('ERR_META_SEND_REFUSED');
  return identifier;
}

const MEDIA_KINDS: Record<string, 'image' | 'video' | 'audio' | 'document' | 'sticker'> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  application: 'document',
  document: 'document',
  sticker: 'sticker',
};

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** The WhatsApp Cloud API's body of one of our messages (text, media by uploaded id, a reply's context). */
async function messageBody(
  ctx: MetaContext,
  account: MetaAccount,
  to: string,
  message: OutboundMessage,
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = { messaging_product: 'whatsapp', recipient_type: 'individual', to };
  if (message.quoted?.channelMessageId) body.context = { message_id: message.quoted.channelMessageId };
  if (message.media) {
    const stream = await message.media.open();
    if (!stream) throw new AppError('ERR_META_SEND_REFUSED');
    const data = await readAll(stream);
    const mimetype = message.media.mimetype ?? 'application/octet-stream';
    const uploaded = await graphOf(ctx).call<{ id: string }>(`${account.externalId}/media`, {
      method: 'POST',
      token: account.token,
      form: { fields: { messaging_product: 'whatsapp', type: mimetype }, file: { name: message.media.fileName, data, mimetype } },
    });
    const kind = MEDIA_KINDS[message.mediaType] ?? (mimetype.startsWith('image/') ? 'image' : 'document');
    const media: Record<string, unknown> = { id: uploaded.id };
    if (message.body && kind !== 'audio' && kind !== 'sticker') media.caption = message.body;
    if (kind === 'document') media.filename = message.media.fileName;
    body.type = kind;
    body[kind] = media;
    return body;
  }
  body.type = 'text';
  body.text = { body: message.body, preview_url: false };
  return body;
}

/** The WhatsApp Cloud API channel (`whatsappapi`), registered with the channels plugin's registry. */
export function whatsappApiChannel(ctx: MetaContext): ChannelRegistration {
  const key = secretsKey(ctx);

  async function accountFor(target: OutboundTarget): Promise<MetaAccount> {
    const account = target.whatsappId === null ? null : await accountOfConnection(ctx, target.companyId, target.whatsappId);
    if (!account?.active) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return account;
  }

  async function post(account: MetaAccount, body: Record<string, unknown>): Promise<SendAnswer> {
    return graphOf(ctx).call<SendAnswer>(`${account.externalId}/messages`, { method: 'POST', token: account.token, json: body });
  }

  const driver: ChannelDriver = {
    async send(target, message) {
      const account = await accountFor(target);
      const to = recipientOf(target);
      // a template chosen in the composer goes as that template, window or not
      const template = message.media ? null : await templateOf(ctx, target, message.body, message.messageId);
      // free-form messages only within 24 h of the contact's last one
      if (!template && !windowOpen(await lastInbound(ctx, target.companyId, account.whatsappId, to)))
        throw new AppError('ERR_META_WINDOW_CLOSED');
      const body = template ? templateBody(to, template) : await messageBody(ctx, account, to, message);
      // Meta hands this back on every status of the message: how an attempt cut off by a crash learns its id
      body.biz_opaque_callback_data = callbackDataOf(message.messageId);
      const earlier = await beginAttempt(ctx, account, message.messageId);
      if (earlier.kind === 'sent') return { channelMessageId: earlier.channelMessageId, ack: 1 };
      if (earlier.kind === 'unknown') {
        const pending = new GraphError(0, -1, 'an earlier try of this message is not reconciled yet');
        throw await sendFailure(ctx, target.companyId, message.messageId, pending);
      }
      try {
        const answer = await post(account, body);
        const id = answer.messages?.[0]?.id;
        if (!id) throw new GraphError(502, -1, 'the send answered no message id');
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
        await post(account, {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: recipientOf(target),
          type: 'reaction',
          reaction: { message_id: channelMessageId, emoji: reaction },
        });
      } catch (error) {
        throw new AppError(mapGraphError(error).code as 'ERR_META_UNAVAILABLE');
      }
    },
    async markRead(target, channelMessageIds) {
      const account = await accountFor(target);
      const last = channelMessageIds.at(-1);
      if (!last) return;
      // marking the latest one marks every earlier message of the conversation read
      await post(account, { messaging_product: 'whatsapp', status: 'read', message_id: last }).catch((error: unknown) => {
        ctx.log.warn({ err: error, whatsappId: account.whatsappId }, 'the Graph refused a read mark');
      });
    },
    async profilePicture() {
      // the Cloud API exposes no contact pictures
      return null;
    },
  };

  return {
    channel: 'whatsappapi',
    planFlag: 'useWhatsapp',
    async prepareConfig(input, previous, scope) {
      const phoneNumberId = text(input.phoneNumberId) || text(previous?.phoneNumberId);
      const businessAccountId = text(input.businessAccountId) || text(previous?.businessAccountId);
      if (!GRAPH_ID.test(phoneNumberId) || !GRAPH_ID.test(businessAccountId)) throw new AppError('ERR_META_CONFIG_INVALID');
      const typed = text(input.token);
      const kept = typeof previous?.tokenSealed === 'string' ? unseal(key, previous.tokenSealed) : null;
      const token = typed || kept;
      if (!token || token.length > 1024) throw new AppError('ERR_META_CONFIG_INVALID');
      await requireAccountFree(ctx, 'whatsappapi', phoneNumberId, scope.connectionId);
      const info = await checkNumber(ctx, phoneNumberId, token);
      const tokenSealed = typed || !previous?.tokenSealed ? seal(key, token) : String(previous.tokenSealed);
      if (scope.connectionId !== null && typed) await updateAccountToken(ctx, scope.companyId, scope.connectionId, tokenSealed);
      return {
        phoneNumberId,
        businessAccountId,
        tokenSealed,
        displayPhoneNumber: info.display_phone_number ?? '',
        verifiedName: info.verified_name ?? '',
      };
    },
    publicConfig(config) {
      // the token never leaves the server: the editor learns only that one is set
      return {
        phoneNumberId: config.phoneNumberId ?? '',
        businessAccountId: config.businessAccountId ?? '',
        displayPhoneNumber: config.displayPhoneNumber ?? '',
        verifiedName: config.verifiedName ?? '',
        hasToken: typeof config.tokenSealed === 'string',
      };
    },
    async start(connection: ChannelConnectionInfo) {
      const config = connection.channelConfig;
      const sealed = typeof config.tokenSealed === 'string' ? config.tokenSealed : null;
      const token = sealed ? unseal(key, sealed) : null;
      const phoneNumberId = text(config.phoneNumberId);
      if (!token || !sealed || !phoneNumberId) throw new AppError('ERR_META_CONFIG_INVALID');
      const info = await checkNumber(ctx, phoneNumberId, token);
      const businessAccountId = text(config.businessAccountId);
      if (!businessAccountId) throw new AppError('ERR_META_CONFIG_INVALID');
      // Meta sends a business account's webhooks to the app only once it is subscribed
      await subscribeApp(ctx, businessAccountId, token);
      await claimAccount(ctx, {
        companyId: connection.companyId,
        whatsappId: connection.id,
        channel: 'whatsappapi',
        externalId: phoneNumberId,
        tokenSealed: sealed,
        details: { businessAccountId },
      });
      const number = (info.display_phone_number ?? '').replace(/\D/g, '');
      if (number) await ctx.services.use('channels').updateStatus(connection.companyId, connection.id, { number });
      return 'CONNECTED';
    },
    async stop(connection) {
      await setAccountActive(ctx, connection.companyId, connection.id, false);
      return 'DISCONNECTED';
    },
    async remove(connection) {
      await removeSubscribedAccount(ctx, connection.companyId, connection.id, 'businessAccountId');
    },
    driver,
  };
}
