import { Modal } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';

export interface LeaveGuardTexts {
  title: string;
  content: string;
  okText: string;
  cancelText: string;
}

type HistoryWrite = History['pushState'];

/** Whether `url` (as the router writes it) names another page than `from` (by default the one open). */
function leavesPage(url: string | URL | null | undefined, from: string = window.location.href): boolean {
  if (url === null || url === undefined) return false;
  return new URL(String(url), from).pathname !== new URL(from).pathname;
}

/** The router's index of a history entry (react-router keeps `idx` in each entry's state), if it has one. */
function indexOf(state: unknown): number | null {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : null;
}

/**
 * Asks before work is lost: closing or reloading the tab while `hasChanges()` gets the browser's own
 * question (`beforeunload`), and moving to another page of the shell gets `texts` in a confirmation — going
 * on only when the user says so. Returns the holder the confirmation renders into (put it in the page).
 *
 * The shell routes with a declarative `BrowserRouter`, where react-router has no blocker (`useBlocker` needs
 * a data router), and every move inside it — menu, links, `navigate()` — writes the address through
 * `history.pushState` or `replaceState` before the router reads it back. So the guard sits there while the
 * page is open: a write that leaves the page with changes pending doesn't happen (the router reads the same
 * address and stays), and once confirmed the same move is made again, let through.
 *
 * The browser's back and forward buttons move first and tell after (`popstate`). The guard listens in the
 * capture phase, which runs before the router's own listener, and keeps the router from hearing a move that
 * leaves the page: it goes back to the page's entry by the same number of steps (the router's `idx` in the
 * entries' state tells how many; without it the page's entry is pushed again), then asks; once confirmed,
 * the same move is made again and the router hears it.
 */
export function useLeaveGuard(hasChanges: () => boolean, texts: LeaveGuardTexts): ReactNode {
  const navigate = useNavigate();
  const [modal, holder] = Modal.useModal();
  // the latest of each, read when a move happens (the guard itself is installed once)
  const latest = useRef({ hasChanges, texts, navigate, modal });
  latest.current = { hasChanges, texts, navigate, modal };

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!latest.current.hasChanges()) return;
      event.preventDefault();
      // older browsers ask only when returnValue is set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);

    const history = window.history;
    const ownPush = Object.hasOwn(history, 'pushState');
    const ownReplace = Object.hasOwn(history, 'replaceState');
    const push = history.pushState;
    const replace = history.replaceState;
    let asking = false;
    let letThrough = false;
    const guarded = (write: HistoryWrite, replacing: boolean): HistoryWrite =>
      function guardedWrite(data, unused, url) {
        if (letThrough || !leavesPage(url) || !latest.current.hasChanges()) {
          write.call(history, data, unused, url);
          remember();
          return;
        }
        if (asking) return;
        asking = true;
        const target = new URL(String(url), window.location.href);
        const { texts: words, modal: dialogs } = latest.current;
        dialogs.confirm({
          title: words.title,
          content: words.content,
          okText: words.okText,
          cancelText: words.cancelText,
          okButtonProps: { danger: true },
          onOk() {
            asking = false;
            letThrough = true;
            try {
              latest.current.navigate(`${target.pathname}${target.search}${target.hash}`, { replace: replacing });
            } finally {
              letThrough = false;
            }
          },
          onCancel() {
            asking = false;
          },
        });
      };
    // the entry the page shows: where a back or forward move that leaves it is returned to
    let here = { state: history.state as unknown, url: window.location.href };
    const remember = () => {
      here = { state: history.state, url: window.location.href };
    };
    // the popstate of the guard's own return to the page, which nobody else must hear
    let returning = false;
    const onPopState = (event: PopStateEvent) => {
      if (returning) {
        returning = false;
        event.stopImmediatePropagation();
        return;
      }
      if (letThrough || !leavesPage(window.location.href, here.url) || !latest.current.hasChanges()) {
        remember();
        return;
      }
      event.stopImmediatePropagation();
      const from = indexOf(here.state);
      const to = indexOf(event.state);
      const steps = from !== null && to !== null && from !== to ? to - from : null;
      const target = new URL(window.location.href);
      if (steps !== null) {
        returning = true;
        history.go(-steps);
      } else {
        push.call(history, here.state, '', here.url);
      }
      if (asking) return;
      asking = true;
      const { texts: words, modal: dialogs } = latest.current;
      dialogs.confirm({
        title: words.title,
        content: words.content,
        okText: words.okText,
        cancelText: words.cancelText,
        okButtonProps: { danger: true },
        onOk() {
          asking = false;
          if (steps !== null) {
            // the same move again, heard by the router this time (the page goes: nothing holds it any more)
            letThrough = true;
            history.go(steps);
            return;
          }
          letThrough = true;
          try {
            latest.current.navigate(`${target.pathname}${target.search}${target.hash}`);
          } finally {
            letThrough = false;
          }
        },
        onCancel() {
          asking = false;
        },
      });
    };
    window.addEventListener('popstate', onPopState, { capture: true });

    const guardedPush = guarded(push, false);
    const guardedReplace = guarded(replace, true);
    history.pushState = guardedPush;
    history.replaceState = guardedReplace;
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('popstate', onPopState, { capture: true });
      // put back what was there, unless someone wrapped ours meanwhile (then theirs must stay)
      if (history.pushState === guardedPush) {
        if (ownPush) history.pushState = push;
        else delete (history as Partial<History>).pushState;
      }
      if (history.replaceState === guardedReplace) {
        if (ownReplace) history.replaceState = replace;
        else delete (history as Partial<History>).replaceState;
      }
    };
  }, []);

  return holder;
}
