import type { ChatApiEvents } from './host';
import type { ChatLoader } from './loader';

/** One queued call of the page: `['open']`, `['on', 'message', handler]`, `['setUser', token]`, … */
export type QueuedCall = [keyof BalcaoChatApi, ...unknown[]];

/** `window.BalcaoChat` once the widget is loaded (docs/channels/widget.md "JS API"). */
export interface BalcaoChatApi {
  open(): void;
  close(): void;
  toggle(): void;
  setUser(identityToken: string | null): void;
  setLocale(locale: string): void;
  on<E extends keyof ChatApiEvents>(event: E, handler: (payload: ChatApiEvents[E]) => void): void;
  off<E extends keyof ChatApiEvents>(event: E, handler: (payload: ChatApiEvents[E]) => void): void;
  /** Same as calling the method: keeps a page's `BalcaoChat.push([...])` working after load. */
  push(...calls: QueuedCall[]): number;
}

const METHODS = ['open', 'close', 'toggle', 'setUser', 'setLocale', 'on', 'off'] as const;

/** The API over a loader: its public methods and nothing else of it (written as a loop: the loader's bytes count). */
export function createApi(loader: ChatLoader): BalcaoChatApi {
  const api = {
    push: (...calls: QueuedCall[]) => {
      for (const call of calls) runCall(api, call);
      return 0;
    },
  } as BalcaoChatApi;
  for (const method of METHODS) (api as unknown as Record<string, unknown>)[method] = (loader[method] as () => void).bind(loader);
  return api;
}

/**
 * The calls a page made before the script loaded, from the stub `window.BalcaoChat = window.BalcaoChat || []`
 * (an array of `[method, ...args]`), in order. Anything else there is ignored.
 */
export function queuedCalls(existing: unknown): QueuedCall[] {
  if (!Array.isArray(existing)) return [];
  return existing.filter((call): call is QueuedCall => Array.isArray(call) && typeof call[0] === 'string');
}

export function runCall(api: BalcaoChatApi, [method, ...args]: QueuedCall): void {
  const target = api[method] as ((...args: unknown[]) => unknown) | undefined;
  if (typeof target === 'function' && method !== 'push') target(...args);
}

/**
 * The identity and language queued before load are the loader's starting options (so the stored session
 * of that same site user is resumed rather than dropped, and the first texts are already right); the
 * other calls run in order once the loader exists. `user` undefined: no setUser was queued.
 */
export function startingOptions(calls: QueuedCall[]): { user?: string | null; locale?: string; rest: QueuedCall[] } {
  const options: { user?: string | null; locale?: string; rest: QueuedCall[] } = { rest: [] };
  for (const call of calls) {
    if (call[0] === 'setUser') options.user = typeof call[1] === 'string' && call[1] ? call[1] : null;
    else if (call[0] === 'setLocale' && typeof call[1] === 'string') options.locale = call[1];
    else options.rest.push(call);
  }
  return options;
}
