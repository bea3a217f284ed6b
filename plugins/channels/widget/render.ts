import { parseChatMarkup } from '@balcao/plugin-sdk/shared';
import type { WebchatMessage } from '../shared/webchat';
import { type DeliveryState, deliveryState, type PendingMessage } from './conversation';
import type { WindowTexts } from './i18n';

/** An element with its class and, optionally, its text (never HTML: every text of a message is the visitor's or an agent's). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * A message's text as DOM nodes (never HTML): the chat markup as emphasis, web addresses as links — the
 * SDK's one markup reading (`parseChatMarkup`), as the inbox and the kanban show it.
 */
export function formattedText(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const segment of parseChatMarkup(text)) {
    let node: Node = document.createTextNode(segment.text);
    if (segment.link) {
      const link = el('a');
      link.href = segment.link;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
      link.appendChild(node);
      node = link;
    }
    for (const [flag, tag] of [
      ['mono', 'code'],
      ['strike', 's'],
      ['italic', 'em'],
      ['bold', 'strong'],
    ] as const) {
      if (!segment[flag]) continue;
      const wrapper = el(tag);
      wrapper.appendChild(node);
      node = wrapper;
    }
    fragment.appendChild(node);
  }
  return fragment;
}

function timeOf(iso: string, locale: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}

/** Only web addresses from the server become src/href (a signed URL); anything else is dropped. */
function safeUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url, location.href);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The media part of a message: images inline, audio and video players, any other file a link. */
function mediaOf(message: WebchatMessage, texts: WindowTexts): HTMLElement | null {
  const url = safeUrl(message.mediaUrl);
  if (!url) return null;
  const name = message.fileName ?? texts.download;
  if (message.mediaType === 'image') {
    const link = el('a', 'media');
    link.href = url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    const image = el('img');
    image.src = url;
    image.alt = name;
    image.loading = 'lazy';
    link.append(image);
    return link;
  }
  if (message.mediaType === 'video' || message.mediaType === 'audio') {
    const player = el(message.mediaType, 'media');
    player.src = url;
    player.controls = true;
    player.preload = 'metadata';
    player.setAttribute('aria-label', name);
    return player;
  }
  const link = el('a', 'file', name);
  link.href = url;
  link.target = '_blank';
  link.rel = 'noopener noreferrer';
  link.setAttribute('download', name);
  return link;
}

export interface RenderContext {
  texts: WindowTexts;
  locale: string;
  /** The bot's name when the server gives none: the connection's. */
  companyName: string;
}

/** One stored message as a bubble: author, text or media, edited/deleted marks, reactions, time and delivery state. */
export function renderMessage(message: WebchatMessage, context: RenderContext): HTMLElement {
  const { texts } = context;
  const mine = message.author === 'visitor';
  const bubble = el('div', `msg ${mine ? 'mine' : 'theirs'} ${message.author}`);
  bubble.dataset.id = message.id;
  bubble.dataset.kind = message.isDeleted ? 'deleted' : message.mediaUrl ? message.mediaType : 'text';
  if (!mine) bubble.append(el('div', 'author', message.authorName ?? context.companyName));
  if (message.isDeleted) {
    bubble.append(el('div', 'text deleted', texts.deleted));
  } else {
    const media = mediaOf(message, texts);
    if (media) bubble.append(media);
    const body = withoutSignature(message);
    const caption = body && !(media && body === message.fileName) ? body : '';
    if (caption) {
      const text = el('div', 'text');
      text.append(formattedText(caption));
      bubble.append(text);
    }
  }
  if (message.reactions.length > 0 && !message.isDeleted) {
    const reactions = el('div', 'reactions');
    for (const reaction of message.reactions)
      reactions.append(el('span', reaction.mine ? 'reaction mine' : 'reaction', reaction.emoji));
    bubble.append(reactions);
  }
  const meta = el('div', 'meta');
  if (message.isEdited && !message.isDeleted) meta.append(el('span', 'edited', texts.edited));
  meta.append(el('time', '', timeOf(message.createdAt, context.locale)));
  if (mine) meta.append(stateMark(deliveryState(message.ack), texts));
  bubble.append(meta);
  return bubble;
}

/**
 * The body without the agent's signature line (`*Alex Agente:*` + newline, which the inbox adds when
 * signing is on): the bubble already names its author.
 */
export function withoutSignature(message: WebchatMessage): string {
  const signature = message.author === 'agent' && message.authorName ? `*${message.authorName}:*\n` : null;
  return signature && message.body.startsWith(signature) ? message.body.slice(signature.length) : message.body;
}

/** A message in flight: its text or file name, the upload progress, and on failure the reason and a retry button. */
export function renderPending(pending: PendingMessage, context: RenderContext): HTMLElement {
  const { texts } = context;
  const bubble = el('div', `msg mine visitor ${pending.state}`);
  bubble.dataset.clientId = pending.clientId;
  if (pending.file) bubble.append(el('div', 'file', pending.file.name));
  if (pending.body) bubble.append(el('div', 'text', pending.body));
  if (pending.state === 'sending' && pending.progress !== null) {
    const progress = el('progress');
    progress.max = 100;
    progress.value = pending.progress;
    progress.setAttribute('aria-label', texts.uploading(pending.progress));
    bubble.append(progress);
  }
  const meta = el('div', 'meta');
  if (pending.state === 'failed') {
    meta.append(el('span', 'error', pending.error ?? texts.failed));
    const retry = el('button', 'retry', texts.retry);
    retry.type = 'button';
    retry.dataset.retry = pending.clientId;
    meta.append(retry);
  } else meta.append(stateMark('sending', texts));
  bubble.append(meta);
  return bubble;
}

function stateMark(state: DeliveryState, texts: WindowTexts): HTMLElement {
  const mark = el(
    'span',
    `state ${state}`,
    { sending: texts.sending, failed: texts.failed, sent: texts.sent, delivered: texts.delivered, read: texts.read }[state],
  );
  mark.dataset.state = state;
  return mark;
}

/** What changes a message's bubble: the bubble is drawn again only when this does. */
export function messageSignature(item: { message?: WebchatMessage; pending?: PendingMessage }): string {
  if (item.message) {
    const { id, body, mediaUrl, isEdited, isDeleted, reactions, ack, authorName } = item.message;
    return JSON.stringify([id, body, mediaUrl, isEdited, isDeleted, reactions, deliveryState(ack), authorName]);
  }
  const pending = item.pending as PendingMessage;
  return JSON.stringify([pending.clientId, pending.state, pending.progress, pending.error]);
}
