import { companyEvent, type PluginContext, ROOMS } from '@balcao/plugin-sdk/server';

/** What the board and the widget are told when a card changed: only ids, never a card's contents. */
export interface BoardChange {
  ticketId: number;
  laneId?: number | null;
}

type Listener = (change: BoardChange) => void;

/**
 * Live board changes as this process's embed event streams see them, per company. Changes reach it from
 * every process through the feature broadcast (`listenToBoardChanges`), so a widget connected to one
 * process sees a move made through another.
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

  deliver(companyId: number, change: BoardChange): void {
    for (const listener of this.listeners.get(companyId) ?? []) listener(change);
  }

  /** Open streams (tests, health). */
  count(companyId: number): number {
    return this.listeners.get(companyId)?.size ?? 0;
  }
}

/** One per app (two apps in one test process keep theirs apart). */
const boards = new WeakMap<PluginContext, BoardChanges>();

/** This app's board changes. */
export function boardChangesOf(ctx: PluginContext): BoardChanges {
  let board = boards.get(ctx);
  if (!board) {
    board = new BoardChanges();
    boards.set(ctx, board);
  }
  return board;
}

const BOARD_TOPIC = 'board-changed';
/**
 * At most one broadcast per company in this window: every inbound message may change a card's preview, and
 * the widgets reload their board at most every 250 ms anyway. The last change of a burst is always sent.
 */
const BROADCAST_WINDOW_MS = 200;
const throttles = new WeakMap<PluginContext, Map<number, { timer: NodeJS.Timeout | null; next: BoardChange | null }>>();

/** Tells every process's embed streams of the company that a card changed (throttled per company). */
export function publishBoardChange(ctx: PluginContext, companyId: number, change: BoardChange): void {
  let byCompany = throttles.get(ctx);
  if (!byCompany) {
    byCompany = new Map();
    throttles.set(ctx, byCompany);
  }
  const send = (payload: BoardChange) => {
    ctx.broadcast.publish(BOARD_TOPIC, { companyId, change: payload }).catch((error: unknown) => {
      ctx.log.warn({ err: error }, 'kanban board change not broadcast');
    });
  };
  const state = byCompany.get(companyId);
  if (state) {
    state.next = change;
    return;
  }
  send(change);
  const entry: { timer: NodeJS.Timeout | null; next: BoardChange | null } = { timer: null, next: null };
  entry.timer = setTimeout(function flush() {
    if (entry.next) {
      send(entry.next);
      entry.next = null;
      entry.timer = setTimeout(flush, BROADCAST_WINDOW_MS);
      return;
    }
    byCompany.delete(companyId);
  }, BROADCAST_WINDOW_MS);
  entry.timer.unref();
  byCompany.set(companyId, entry);
}

/** Subscribes this process to every process's board changes; resolves to the function that stops it. */
export function listenToBoardChanges(ctx: PluginContext): Promise<() => Promise<void>> {
  const board = boardChangesOf(ctx);
  return ctx.broadcast.subscribe(BOARD_TOPIC, (payload) => {
    const { companyId, change } = payload as { companyId: number; change: BoardChange };
    board.deliver(companyId, change);
  });
}

/** `company-{id}-kanban`: the boards of the company reload (the payload holds ids only). */
export function kanbanChannel(companyId: number): string {
  return companyEvent(companyId, 'kanban');
}

/**
 * Tells the boards (socket) of the users who may see the ticket — the inbox's visibility rule, through the
 * SDK's `ticketAudience` — and the company's embedded widgets (event streams, which answer to their key's
 * own lanes) that a card changed. A user who can't see the ticket hears nothing of it.
 */
export async function announceChange(ctx: PluginContext, companyId: number, change: BoardChange): Promise<void> {
  const userIds = await ctx.services.use('inbox').ticketAudience(companyId, change.ticketId);
  if (userIds.length > 0) {
    ctx.realtime.emit(companyId, kanbanChannel(companyId), { action: 'update', ...change }, { rooms: userIds.map(ROOMS.user) });
  }
  publishBoardChange(ctx, companyId, change);
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
