/**
 * The visitor's session on the embedding page's origin, per widget key (localStorage): it survives pages
 * and reloads. `subject` is the `sub` of the identity token the session was made with (null: anonymous),
 * so a different site user (setUser) never resumes someone else's conversation.
 */
export interface StoredSession {
  token: string;
  subject: string | null;
  /** Company messages that arrived while the window was closed (the launcher's badge). */
  unread: number;
}

const storageKey = (widgetKey: string) => `balcao-chat:${widgetKey}`;

export function readSession(widgetKey: string): StoredSession | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey(widgetKey)) ?? 'null') as StoredSession | null;
    return parsed && typeof parsed.token === 'string'
      ? { token: parsed.token, subject: parsed.subject ?? null, unread: Number(parsed.unread) || 0 }
      : null;
  } catch {
    // storage refused (private mode, sandboxed frame) or damaged: a fresh visitor
    return null;
  }
}

export function writeSession(widgetKey: string, session: StoredSession | null): void {
  try {
    if (session) localStorage.setItem(storageKey(widgetKey), JSON.stringify(session));
    else localStorage.removeItem(storageKey(widgetKey));
  } catch {
    // storage refused: the session lasts as long as the page
  }
}

/** The `sub` claim of a JWT, read without checking it (the server checks; this only tells users apart). */
export function identitySubject(identity: string | null): string | null {
  if (!identity) return null;
  try {
    const payload = identity.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return sub === undefined || sub === null ? null : String(sub);
  } catch {
    return null;
  }
}
