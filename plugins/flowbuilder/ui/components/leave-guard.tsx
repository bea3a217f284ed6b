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

/** Whether `url` (as the router writes it) names another page than the one open. */
function leavesPage(url: string | URL | null | undefined): boolean {
  if (url === null || url === undefined) return false;
  return new URL(String(url), window.location.href).pathname !== window.location.pathname;
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
 * address and stays), and once confirmed the same move is made again, let through. The browser's back and
 * forward buttons move without asking anyone first and are not held.
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
    const guardedPush = guarded(push, false);
    const guardedReplace = guarded(replace, true);
    history.pushState = guardedPush;
    history.replaceState = guardedReplace;
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
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
