import type { WebchatConfig, WebchatEventName, WebchatMessage } from '../shared/webchat';
import { playBeep } from './beep';
import type { ChatApiEvents, ChatWindow, StreamEvent, WidgetHost } from './host';
import { callWebchat, WebchatCallError, webchatUrl } from './http';
import { chooseLocale, LAUNCHER_TEXTS, pageLocaleCandidates, type WidgetLocale } from './locale';
import { identitySubject, readSession, writeSession } from './session-store';

export interface LoaderOptions {
  widgetKey: string;
  /** The Balcão API, `https://balcao.example/api`. */
  api: string;
  /** Inline: the window fills `target` and stays open; floating (default): a launcher in a corner. */
  inline?: boolean;
  target?: HTMLElement | null;
  /** pt, en, es or tr (data-locale); otherwise the page's language. */
  locale?: string | null;
  /** A site-signed identity token (data-user). */
  user?: string | null;
}

const STREAM_EVENTS: WebchatEventName[] = ['message', 'update', 'typing', 'status', 'ended'];
const RETRY_FIRST_MS = 1_000;
/** Retries of a refused stream stop past this delay (1, 2, 4, … 32 s: about a minute in all). */
const RETRY_MAX_MS = 32_000;

// kept terse: every byte here is paid by every page of the site (the window's styles load on open)
const LAUNCHER_CSS = `:host{all:initial;position:fixed;bottom:20px;right:20px;z-index:2147483000;--bc-accent:#1677ff;--bc-on-accent:#fff;font:14px/1.4 system-ui,sans-serif}
:host([data-position=left]){right:auto;left:20px}
:host([data-inline]){position:relative;display:block;inset:auto;height:100%;min-height:360px;z-index:auto}
.launcher{position:relative;width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;background:var(--bc-accent);color:var(--bc-on-accent);box-shadow:0 4px 14px #0004}
svg{width:28px;fill:currentColor}
.badge{position:absolute;top:-4px;right:-4px;min-width:20px;padding:0 5px;border-radius:10px;background:#e53935;color:#fff;font:600 12px/20px system-ui,sans-serif}
:host([data-offline]) .launcher{filter:grayscale(.6)}
:host([data-open]) .launcher{display:none}
@media (max-width:479px){:host([data-open]){inset:0}}`;

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2z"/></svg>';

/**
 * The loader: what every page pays for. It reads the connection's configuration, draws the launcher
 * (colour, corner, unread badge) inside a Shadow DOM, keeps the visitor's event stream while a session
 * exists (unread count, sound), serves the JS API, and loads the chat window on first open.
 */
export class ChatLoader implements WidgetHost {
  readonly widgetKey: string;
  readonly api: string;
  readonly inline: boolean;
  readonly root: ShadowRoot;
  readonly panel: HTMLElement;
  readonly hostElement: HTMLElement;
  config: WebchatConfig | null = null;
  configError: string | null = null;
  locale: WidgetLocale;
  isOpen = false;
  identity: string | null;
  sessionToken: string | null = null;
  #unread = 0;
  readonly #launcher: HTMLButtonElement;
  readonly #badge: HTMLSpanElement;
  readonly #listeners = new Map<string, Set<(payload: never) => void>>();
  readonly #streamListeners = new Set<(event: StreamEvent) => void>();
  #stream: EventSource | null = null;
  #streamConnectedOnce = false;
  #retryDelay = RETRY_FIRST_MS;
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #windowModule: Promise<ChatWindow> | null = null;
  #chatWindow: ChatWindow | null = null;
  #configLoaded: Promise<void>;
  #destroyed = false;

  constructor(options: LoaderOptions) {
    this.widgetKey = options.widgetKey;
    this.api = options.api;
    this.inline = Boolean(options.inline && options.target);
    this.locale = chooseLocale(pageLocaleCandidates(options.locale));
    this.identity = options.user ?? null;
    const stored = readSession(this.widgetKey);
    if (stored && stored.subject === identitySubject(this.identity)) {
      this.sessionToken = stored.token;
      this.#unread = stored.unread;
    } else if (stored) writeSession(this.widgetKey, null);

    // a custom element (a valid custom element name may have a shadow root): a page's rules for `div` don't reach it
    this.hostElement = this.inline && options.target ? options.target : document.createElement('balcao-chat');
    if (!this.inline) {
      this.hostElement.id = 'balcao-chat';
      document.body.append(this.hostElement);
    } else this.hostElement.dataset.inline = '';
    this.root = this.hostElement.shadowRoot ?? this.hostElement.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = LAUNCHER_CSS;
    this.panel = document.createElement('div');
    this.panel.className = 'panel';
    this.#launcher = document.createElement('button');
    this.#launcher.type = 'button';
    this.#launcher.className = 'launcher';
    this.#launcher.innerHTML = CHAT_ICON;
    this.#badge = document.createElement('span');
    this.#badge.className = 'badge';
    this.#launcher.append(this.#badge);
    this.#launcher.addEventListener('click', () => this.toggle());
    this.root.replaceChildren(style, this.panel, ...(this.inline ? [] : [this.#launcher]));
    this.#paintLauncher();
    this.#configLoaded = this.#loadConfig();
  }

  /** Settles once the configuration was read (or refused). */
  whenReady(): Promise<void> {
    return this.#configLoaded;
  }

  reloadConfig(): Promise<void> {
    this.configError = null;
    this.#configLoaded = this.#loadConfig();
    return this.#configLoaded;
  }

  async #loadConfig(): Promise<void> {
    try {
      this.config = await callWebchat<WebchatConfig>(this.api, this.widgetKey, '/config');
      this.#applyConfig(this.config);
      if (this.sessionToken) this.#openStream();
      this.emit('ready', { online: this.config.online });
    } catch (error) {
      this.configError = error instanceof WebchatCallError ? error.code : 'NETWORK';
      this.emit('error', { code: this.configError });
    }
    if (this.inline) void this.open();
  }

  #applyConfig(config: WebchatConfig): void {
    const host = this.hostElement;
    // the server keeps it #RRGGBB; anything else is ignored by setProperty and the default stays
    host.style.setProperty('--bc-accent', config.color);
    host.style.setProperty('--bc-on-accent', readableOn(config.color));
    host.dataset.position = config.position === 'left' ? 'left' : 'right';
    host.dataset.theme = config.theme;
    this.setOnline(config.online);
  }

  setOnline(online: boolean): void {
    if (this.config) this.config = { ...this.config, online };
    if (online) delete this.hostElement.dataset.offline;
    else this.hostElement.dataset.offline = '';
  }

  // ---- the JS API --------------------------------------------------------------------------------

  async open(): Promise<void> {
    if (this.#destroyed) return;
    if (!this.isOpen) {
      this.isOpen = true;
      this.hostElement.dataset.open = '';
      this.#setUnread(0);
      this.#paintLauncher();
    }
    const chatWindow = await this.#loadWindow();
    if (!this.isOpen) return;
    chatWindow.shown();
    this.emit('open', undefined);
  }

  close(): void {
    if (!this.isOpen || this.inline) return;
    this.isOpen = false;
    delete this.hostElement.dataset.open;
    this.#chatWindow?.hidden();
    this.#paintLauncher();
    this.#launcher.focus();
    this.emit('close', undefined);
  }

  toggle(): void {
    if (this.isOpen) this.close();
    else void this.open();
  }

  /** A site user's identity token, or null to forget the visitor (a shared computer's sign-out). */
  setUser(token: unknown): void {
    const identity = typeof token === 'string' && token ? token : null;
    const sameUser = identity !== null && identitySubject(identity) === identitySubject(this.identity);
    this.identity = identity;
    if (sameUser) return; // a fresh token of the same user: the next session call sends it
    // the server ends the old session too (its streams get `ended`), so it can't be resumed from a copy
    if (this.sessionToken)
      callWebchat(this.api, this.widgetKey, '/sessions', { method: 'DELETE', sessionToken: this.sessionToken }).catch(() => {});
    this.forgetSession();
    this.#chatWindow?.userChanged();
  }

  setLocale(locale: string | null): void {
    this.locale = chooseLocale(pageLocaleCandidates(locale));
    this.#paintLauncher();
    this.#chatWindow?.localeChanged();
  }

  on<E extends keyof ChatApiEvents>(event: E, handler: (payload: ChatApiEvents[E]) => void): void {
    const set = this.#listeners.get(event) ?? new Set();
    set.add(handler as (payload: never) => void);
    this.#listeners.set(event, set);
  }

  off<E extends keyof ChatApiEvents>(event: E, handler: (payload: ChatApiEvents[E]) => void): void {
    this.#listeners.get(event)?.delete(handler as (payload: never) => void);
  }

  emit<E extends keyof ChatApiEvents>(event: E, payload: ChatApiEvents[E]): void {
    for (const handler of this.#listeners.get(event) ?? []) {
      try {
        (handler as (payload: ChatApiEvents[E]) => void)(payload);
      } catch (error) {
        // one faulty page handler must not stop the widget (nor the other handlers): reported, not thrown
        reportError(error);
      }
    }
  }

  destroy(): void {
    this.#destroyed = true;
    this.#closeStream();
    this.root.replaceChildren();
    if (!this.inline) this.hostElement.remove();
  }

  // ---- session and event stream ------------------------------------------------------------------

  saveSession(token: string): void {
    const changed = token !== this.sessionToken;
    this.sessionToken = token;
    this.#persist();
    if (changed || !this.#stream) this.#openStream();
  }

  forgetSession(): void {
    this.sessionToken = null;
    this.#closeStream();
    this.#setUnread(0);
    writeSession(this.widgetKey, null);
  }

  onStream(listener: (event: StreamEvent) => void): () => void {
    this.#streamListeners.add(listener);
    return () => this.#streamListeners.delete(listener);
  }

  #persist(): void {
    if (!this.sessionToken) return;
    writeSession(this.widgetKey, { token: this.sessionToken, subject: identitySubject(this.identity), unread: this.#unread });
  }

  #openStream(): void {
    this.#closeStream();
    if (!this.sessionToken || typeof EventSource === 'undefined' || this.#destroyed) return;
    const url = `${webchatUrl(this.api, this.widgetKey, '/events')}?sessionToken=${encodeURIComponent(this.sessionToken)}`;
    const stream = new EventSource(url);
    this.#stream = stream;
    for (const name of STREAM_EVENTS) {
      stream.addEventListener(name, (event) =>
        this.#onStreamEvent({ name, data: JSON.parse((event as MessageEvent<string>).data || 'null') } as StreamEvent),
      );
    }
    stream.addEventListener('open', () => {
      this.#retryDelay = RETRY_FIRST_MS;
      // after a drop the stream resumes without what was sent meanwhile: the window fetches it
      if (this.#streamConnectedOnce) this.#dispatch({ name: 'resync', data: null });
      this.#streamConnectedOnce = true;
    });
    stream.addEventListener('error', () => {
      // CONNECTING: the browser retries by itself; CLOSED: the server refused it
      if (stream.readyState === 2 && this.#stream === stream) this.#retryStream();
    });
  }

  #closeStream(): void {
    this.#stream?.close();
    this.#stream = null;
    this.#streamConnectedOnce = false;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }

  /**
   * A stream the browser gave up on (the server refused it: a session revoked meanwhile, a restart): tried
   * again with a growing delay, a few times. The loader doesn't ask why, to stay small: opening the window
   * resumes the session, which drops an invalid one or opens the stream again.
   */
  #retryStream(): void {
    if (this.#retryDelay > RETRY_MAX_MS) return;
    const token = this.sessionToken;
    this.#retryTimer = setTimeout(() => {
      if (this.sessionToken !== token) return;
      this.#openStream();
      // whatever was sent while it was down is fetched when it opens
      this.#streamConnectedOnce = true;
    }, this.#retryDelay);
    this.#retryDelay *= 2;
  }

  #onStreamEvent(event: StreamEvent): void {
    if (event.name === 'ended') {
      this.forgetSession();
      this.#chatWindow?.userChanged();
      return;
    }
    if (event.name === 'status') this.setOnline(Boolean(event.data.online));
    // the visitor's own messages (sent from another tab) are shown, not announced
    if (event.name === 'message' && event.data.author !== 'visitor') this.#arrived(event.data);
    this.#dispatch(event);
  }

  #dispatch(event: StreamEvent): void {
    for (const listener of this.#streamListeners) listener(event);
  }

  /** A company message: counted while closed, a beep when not seen, and the page's `message` event. */
  #arrived(message: WebchatMessage): void {
    const hidden = document.visibilityState === 'hidden';
    if (!this.isOpen) this.#setUnread(this.#unread + 1);
    if (!this.isOpen || hidden) playBeep();
    this.emit('message', message);
  }

  #setUnread(count: number): void {
    if (count === this.#unread) return;
    this.#unread = count;
    this.#persist();
    this.#paintLauncher();
  }

  #paintLauncher(): void {
    const label = LAUNCHER_TEXTS[this.locale];
    const unread = this.isOpen ? 0 : this.#unread;
    this.#badge.hidden = unread === 0;
    this.#badge.textContent = unread > 99 ? '99+' : String(unread);
    this.#launcher.setAttribute('aria-label', unread ? `${label} (${unread})` : label);
  }

  #loadWindow(): Promise<ChatWindow> {
    this.#windowModule ??= this.#configLoaded
      .then(() => import(/* webpackChunkName: "channels-widget-window" */ './chat-window'))
      .then(({ mountChatWindow }) => {
        this.#chatWindow = mountChatWindow(this);
        return this.#chatWindow;
      });
    return this.#windowModule;
  }
}

/** Black or white, whichever reads better on the connection's colour. */
export function readableOn(color: string): string {
  const value = Number.parseInt(color.slice(1), 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 160 ? '#000' : '#fff';
}
