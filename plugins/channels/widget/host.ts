import type { WebchatConfig, WebchatEventMap, WebchatMessage } from '../shared/webchat';
import type { WidgetLocale } from './locale';

/** The events the embedding page can follow with `BalcaoChat.on(event, handler)`. */
export interface ChatApiEvents {
  ready: { online: boolean };
  open: undefined;
  close: undefined;
  /** A new message of the conversation: the company's as they arrive, the visitor's once stored. */
  message: WebchatMessage;
  /** The widget can't work on this page (unknown key, refused origin, bad identity, …). */
  error: { code: string };
}

/** What arrives on the visitor's event stream, plus `resync`: reconnected after a drop, fetch what was missed. */
export type StreamEvent =
  | { [E in keyof WebchatEventMap]: { name: E; data: WebchatEventMap[E] } }[keyof WebchatEventMap]
  | {
      name: 'resync';
      data: null;
    };

/**
 * What the loader (always present) offers the chat window (loaded on first open): the configuration,
 * the session, the event stream, the page's API events.
 */
export interface WidgetHost {
  readonly widgetKey: string;
  /** `https://balcao.example/api` */
  readonly api: string;
  readonly inline: boolean;
  readonly root: ShadowRoot;
  /** Where the window draws itself. */
  readonly panel: HTMLElement;
  readonly config: WebchatConfig | null;
  /** Why the configuration could not be read (the window shows it). */
  readonly configError: string | null;
  readonly locale: WidgetLocale;
  readonly isOpen: boolean;
  /** The identity token the site gave (data-user / setUser), null for an anonymous visitor. */
  readonly identity: string | null;
  readonly sessionToken: string | null;
  /** Keeps a new (or resumed) session and opens its event stream. */
  saveSession(token: string): void;
  /** Drops the session (ended, invalid, setUser(null)): the next open starts a new visitor. */
  forgetSession(): void;
  onStream(listener: (event: StreamEvent) => void): () => void;
  emit<E extends keyof ChatApiEvents>(event: E, payload: ChatApiEvents[E]): void;
  /** Reads the configuration again (after a network failure: the error view's "try again"). */
  reloadConfig(): Promise<void>;
  /** The connection went on or off line (config or the stream's status). */
  setOnline(online: boolean): void;
  close(): void;
}

/** What the chat window module offers back to the loader. */
export interface ChatWindow {
  /** The window became visible (open, or the tab came back): focus, mark read. */
  shown(): void;
  hidden(): void;
  /** The language or the user changed: draw again, or start over as another visitor. */
  localeChanged(): void;
  userChanged(): void;
}
