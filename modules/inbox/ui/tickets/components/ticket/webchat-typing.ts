import { companyEvent, subscribeSocketEvent } from '@balcao/plugin-sdk/ui';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSendWebchatTypingMutation } from '../../api/webchat-typing';

/** A "typing" notice is repeated this often while the agent keeps typing (the visitor's widget expires it). */
export const TYPING_REPEAT_MS = 3_000;
/** After this long without a keystroke the agent stopped typing. */
export const TYPING_IDLE_MS = 4_000;
/** The visitor's notice is shown this long unless a newer one says otherwise. */
export const VISITOR_TYPING_SHOWN_MS = 6_000;

/**
 * Turns keystrokes into at most one `typing: true` every TYPING_REPEAT_MS and one `typing: false` after
 * TYPING_IDLE_MS of quiet (or at once on `stop`, when the message is sent). Pure timing: `send` does the call.
 */
export function typingNotifier(send: (typing: boolean) => void, now: () => number = Date.now) {
  let lastSent = 0;
  let typing = false;
  let idle: ReturnType<typeof setTimeout> | null = null;
  const stop = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    if (typing) send(false);
    typing = false;
    lastSent = 0;
  };
  return {
    keystroke(text: string) {
      if (text.trim() === '') return stop();
      if (!typing || now() - lastSent >= TYPING_REPEAT_MS) {
        send(true);
        typing = true;
        lastSent = now();
      }
      if (idle) clearTimeout(idle);
      idle = setTimeout(stop, TYPING_IDLE_MS);
    },
    stop,
  };
}

/** The composer's side: `keystroke(text)` on every change of a webchat ticket's text, `stop()` on send. */
export function useAgentTypingNotice(ticket: { id: number; channel: string }) {
  const [sendTyping] = useSendWebchatTypingMutation();
  const notifier = useMemo(
    () =>
      ticket.channel === 'webchat'
        ? typingNotifier((typing) => {
            // a lost notice is harmless: never an error toast for it
            sendTyping({ ticketId: ticket.id, typing })
              .unwrap()
              .catch(() => {});
          })
        : null,
    [ticket.id, ticket.channel, sendTyping],
  );
  useEffect(() => () => notifier?.stop(), [notifier]);
  return notifier;
}

/** The visitor's typing notices of one webchat ticket (`company-{id}-webchatTyping` in its chat box room). */
export function useVisitorTyping(companyId: number, ticket: { id: number; channel: string }): { name: string | null } | null {
  const [typing, setTyping] = useState<{ name: string | null } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    setTyping(null);
    if (ticket.channel !== 'webchat') return;
    const unsubscribe = subscribeSocketEvent<{ ticketId: number; typing: boolean; name: string | null }>(
      companyEvent(companyId, 'webchatTyping'),
      (event) => {
        if (event.ticketId !== ticket.id) return;
        if (timer.current) clearTimeout(timer.current);
        if (!event.typing) return setTyping(null);
        setTyping({ name: event.name });
        timer.current = setTimeout(() => setTyping(null), VISITOR_TYPING_SHOWN_MS);
      },
    );
    return () => {
      unsubscribe();
      if (timer.current) clearTimeout(timer.current);
    };
  }, [companyId, ticket.id, ticket.channel]);
  return typing;
}
