/**
 * The webchat widget's loader (docs: docs/channels/widget.md). One tag on any page:
 *
 *   <script async src="https://balcao.example/plugins/channels/widget/channels-widget.js"
 *     data-key="<widgetKey>"></script>
 *
 * Options: data-mode="inline" data-target="#element" (the window inside an element of the page),
 * data-locale="pt|en|es|tr", data-user="<identity token the site signed>", data-api (another Balcão API).
 * The chat window itself is loaded on first open.
 */
import { type BalcaoChatApi, createApi, queuedCalls, runCall, startingOptions } from './api';
import { ChatLoader } from './loader';

declare global {
  interface Window {
    BalcaoChat?: BalcaoChatApi | unknown[];
  }
}

const script = document.currentScript as HTMLScriptElement | null;
const dataset = script?.dataset ?? {};
/** The API of the Balcão that served this script, unless the page names another. */
const api = dataset.api ?? (script?.src ? `${new URL(script.src).origin}/api` : `${location.origin}/api`);

function start(): void {
  if (!dataset.key) throw new Error('BalcaoChat: no data-key');
  const { user, locale, rest } = startingOptions(queuedCalls(window.BalcaoChat));
  const target = dataset.target ? document.querySelector<HTMLElement>(dataset.target) : null;
  const loader = new ChatLoader({
    widgetKey: dataset.key,
    api,
    inline: dataset.mode === 'inline' && target !== null,
    target,
    locale: locale ?? dataset.locale ?? null,
    user: user === undefined ? (dataset.user ?? null) : user,
  });
  const chat = createApi(loader);
  window.BalcaoChat = chat;
  for (const call of rest) runCall(chat, call);
}

// the floating launcher goes into <body>, an inline window into its target: both must exist
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
