import { companyEvent, type PluginContext } from '@balcao/plugin-sdk/server';

/** What the board and the widget are told when a card changed: only ids, never a card's contents. */
export interface BoardChange {
  ticketId: number;
  laneId?: number | null;
}

type Listener = (change: BoardChange) => void;

/**
 * Live board changes inside this process: the embed event streams subscribe per company. Fed by the
 * kanban's bus handlers (moves, new messages, ticket changes), which run where the change happened.
 */
class BoardChanges {
  private readonly listeners = new Map<number, Set<Listener>>();

  subscribe(companyId: number, listener: Listener): () => void {
    let set = this.listeners.get(companyId);
    if (!set) {
      set = new Set();
      this.listeners.set(companyId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(companyId);
    };
  }

  publish(companyId: number, change: BoardChange): void {
    for (const listener of this.listeners.get(companyId) ?? []) listener(change);
  }

  /** Open streams (tests, health). */
  count(companyId: number): number {
    return this.listeners.get(companyId)?.size ?? 0;
  }
}

export const boardChanges = new BoardChanges();

/** `company-{id}-kanban`: the boards of the company reload (the payload holds ids only). */
export function kanbanChannel(companyId: number): string {
  return companyEvent(companyId, 'kanban');
}

/** Tells the company's boards (socket) and its embedded widgets (event streams) that a card changed. */
export function announceChange(ctx: PluginContext, companyId: number, change: BoardChange): void {
  ctx.realtime.emit(companyId, kanbanChannel(companyId), { action: 'update', ...change });
  boardChanges.publish(companyId, change);
}

const revocationListeners = new Map<number, Set<() => void>>();

/** Called when the key is revoked in this process (its open streams close at once; others at their next check). */
export function onKeyRevoked(keyId: number, listener: () => void): () => void {
  let set = revocationListeners.get(keyId);
  if (!set) {
    set = new Set();
    revocationListeners.set(keyId, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) revocationListeners.delete(keyId);
  };
}

export function keyRevoked(keyId: number): void {
  for (const listener of [...(revocationListeners.get(keyId) ?? [])]) listener();
}
