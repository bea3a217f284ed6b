import { API_BASE } from '@balcao/plugin-sdk/ui';

/**
 * The platform's support chat on the login page (docs/channels/widget.md "The login page's support chat"):
 * the channels plugin's website chat widget, whose loader is fetched on the first click only, so the
 * login's first download carries none of it. Calls go through the widget's documented queue
 * (`window.BalcaoChat.push`), which works before and after the loader has run.
 */

/** What `GET /support-chat` answers when a support chat is set. */
export interface SupportChatWidget {
  widgetKey: string;
  scriptUrl: string;
}

const SCRIPT_ID = 'balcao-support-chat';
/** The element the widget draws its floating launcher and window in. */
const WIDGET_ELEMENT_ID = 'balcao-chat';

type ChatQueue = { push(call: unknown[]): unknown };

function chatQueue(): ChatQueue {
  const page = window as unknown as { BalcaoChat?: ChatQueue };
  page.BalcaoChat ??= [];
  return page.BalcaoChat;
}

const loaded = () => document.getElementById(SCRIPT_ID) !== null;

function showLauncher(shown: boolean): void {
  const element = document.getElementById(WIDGET_ELEMENT_ID);
  if (element) element.style.display = shown ? '' : 'none';
}

/** Opens the support chat in `locale`, loading the widget the first time. */
export function openSupportChat(widget: SupportChatWidget, locale: string): void {
  const queue = chatQueue();
  queue.push(['setLocale', locale]);
  if (!loaded()) {
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.async = true;
    script.src = widget.scriptUrl;
    script.dataset.key = widget.widgetKey;
    // the shell's own API, wherever API_PREFIX puts it
    script.dataset.api = new URL(API_BASE, window.location.href).href.replace(/\/$/, '');
    document.body.append(script);
  }
  showLauncher(true);
  queue.push(['open']);
}

/** Leaving the login page: the launcher is the login page's only, not the signed-in shell's. */
export function hideSupportChat(): void {
  if (!loaded()) return;
  chatQueue().push(['close']);
  showLauncher(false);
}

/** A login: the visitor's support conversation is ended, so the next person at this computer starts afresh. */
export function forgetSupportChatVisitor(): void {
  if (loaded()) chatQueue().push(['setUser', null]);
}
