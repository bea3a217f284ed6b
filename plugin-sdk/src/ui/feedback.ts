import { errorCodeOf } from './base-query';
import { formatDate } from './dates';
import { CORE_NAMESPACE, i18n, translationNamespaces } from './i18n';

/** docs/product/tickets-and-inbox.md#errors: toasts close after 2 seconds… */
export const TOAST_DURATION_SECONDS = 2;
/** …and after 3 seconds in the top-centre toast setup. */
export const TOP_CENTER_TOAST_DURATION_SECONDS = 3;

/**
 * How a toast shows, both at the top centre of the window (docs/product/tickets-and-inbox.md#errors): a notification of the stack (2 s),
 * or the slim top-centre message bar (3 s).
 */
export type ToastPlacement = 'stack' | 'top-center';

/** What a toast says about itself. */
export type ToastKind = 'success' | 'info' | 'warning' | 'error';

/** The instance APIs of antd's `message.useMessage()` and `notification.useNotification()`. */
export interface ToastApis {
  message: ReturnType<typeof import('antd/es/message').default.useMessage>[0];
  notification: ReturnType<typeof import('antd/es/notification').default.useNotification>[0];
}

let holders: ToastApis | null = null;
/** Toasts asked for while no `ToastHost` is mounted yet (the first paint, a page change): shown when one is. */
const waiting: Array<(apis: ToastApis) => void> = [];
/** A page without a host never shows its toasts; it keeps only the latest few for when one mounts. */
const MAX_WAITING_TOASTS = 5;

/**
 * Called by the mounted `ToastHost`: toasts go to its holders from now on (and the waiting ones now).
 * Returns the detach function for its unmount.
 */
export function attachToastHolders(apis: ToastApis): () => void {
  holders = apis;
  for (const show of waiting.splice(0)) show(apis);
  return () => {
    if (holders === apis) holders = null;
  };
}

let toastRequested = false;
const requestListeners = new Set<() => void>();

/**
 * For `ToastHost`: whether a toast was ever asked for on this page. The holders' code loads only then, so
 * the login page's first download does without it.
 */
export const toastDemand = {
  subscribe(listener: () => void): () => void {
    requestListeners.add(listener);
    return () => requestListeners.delete(listener);
  },
  requested: (): boolean => toastRequested,
};

/** Shows a toast now, or as soon as a host mounts; resolves once it is on screen. */
function show(kind: ToastKind, text: string, placement: ToastPlacement): Promise<void> {
  return new Promise((resolve) => {
    const open = ({ message, notification }: ToastApis) => {
      if (placement === 'top-center') {
        void message.open({ type: kind, content: text, duration: TOP_CENTER_TOAST_DURATION_SECONDS });
      } else {
        notification.open({ type: kind, title: text, duration: TOAST_DURATION_SECONDS, placement: 'top' });
      }
      resolve();
    };
    if (holders) {
      open(holders);
      return;
    }
    if (waiting.push(open) > MAX_WAITING_TOASTS) waiting.shift();
    if (!toastRequested) {
      toastRequested = true;
      for (const listener of requestListeners) listener();
    }
  });
}

/** Toasts: `toast.success(t('saved'))`. Texts are already translated by the caller. */
export const toast = {
  success: (text: string, placement: ToastPlacement = 'stack') => show('success', text, placement),
  info: (text: string, placement: ToastPlacement = 'stack') => show('info', text, placement),
  warning: (text: string, placement: ToastPlacement = 'stack') => show('warning', text, placement),
  error: (text: string, placement: ToastPlacement = 'stack') => show('error', text, placement),
};

/** The error code carried by an API error, an `Error('ERR_…')`, or a bare code string. */
function codeOf(error: unknown): string | undefined {
  if (typeof error === 'string') return error.length > 0 ? error : undefined;
  if (error instanceof Error) return /^ERR_[A-Z0-9_]+$/.test(error.message) ? error.message : undefined;
  return errorCodeOf(error);
}

/** Values an error body carries for its message (`retryAfter`, `dueDate` as `date`, …). */
function interpolationOf(error: unknown): Record<string, unknown> {
  const data = typeof error === 'object' && error !== null ? (error as { data?: unknown }).data : undefined;
  if (typeof data !== 'object' || data === null) return {};
  const values: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  if (typeof values.dueDate === 'string') values.date = formatDate(values.dueDate);
  delete values.error;
  return values;
}

/**
 * The text of an error by the rule of docs/product/tickets-and-inbox.md#errors: the translation of its code when one exists (in the
 * core's namespace or any feature's `errors.<code>`), otherwise the raw code, otherwise
 * 'An error occurred!' (translated).
 */
export function errorMessage(error: unknown): string {
  const code = codeOf(error);
  if (!code) return i18n.t('errors.generic', { ns: CORE_NAMESPACE });
  const key = `errors.${code}`;
  const values = interpolationOf(error);
  for (const ns of translationNamespaces()) {
    if (i18n.exists(key, { ns })) return i18n.t(key, { ...values, ns });
  }
  return code;
}

/** Shows an error toast with `errorMessage(error)`. */
export function showError(error: unknown, placement: ToastPlacement = 'stack'): void {
  show('error', errorMessage(error), placement);
}
