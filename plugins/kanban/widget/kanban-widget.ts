import { parseChatMarkup } from '@balcao/plugin-sdk/shared';
import { cardTime, groupByLane, visibleWindow } from '../shared/format';
import { textsFor, type WidgetTexts } from './i18n';
import { WIDGET_CSS } from './styles';

/** A card as the embed API answers it. */
export interface WidgetCard {
  id: number;
  uuid: string;
  channel: string;
  contact: { name: string; number: string | null };
  lastMessage: string;
  unreadMessages: number;
  updatedAt: string;
  user: { name: string } | null;
  laneId: number | null;
}

/** `GET /kanban-embed/:key/board` (with `perLane`: the first cards of every lane and every lane's count). */
export interface WidgetBoard {
  name: string;
  mayMove: boolean;
  signedUsers: boolean;
  defaultLane: boolean;
  lanes: Array<{ id: number; name: string; color: string }>;
  tickets: WidgetCard[];
  /** Present when the answer is a page of the board (else `tickets` is every card). */
  laneCounts?: Array<{ laneId: number | null; count: number }>;
}

/** A lane as the widget holds it: its first cards, how many it has, and its further pages loaded so far. */
interface LaneState {
  key: string;
  id: number | null;
  name: string;
  color: string;
  count: number;
  first: WidgetCard[];
  /** Pages of PAGE_CARDS after the first cards, by number; `fresh` false: from before the last reload. */
  pages: Map<number, { cards: WidgetCard[]; fresh: boolean }>;
}

export interface WidgetOptions {
  /** The embed key (`kbk_…`). */
  key: string;
  /** The element (or a selector of it) the board fills. */
  target: HTMLElement | string;
  /** The Balcão API address, `https://balcao.example/api` (default: the script's origin + /api). */
  api: string;
  /** pt (default), en, es or tr. */
  lang?: string;
  theme?: 'light' | 'dark';
  /** Signed-user mode: the token the embedding site signed (see docs/kanban.md). */
  userToken?: string;
}

/** The events the embedding page can listen to (on the target element, or with `widget.on`). */
export interface WidgetEvents {
  ready: { lanes: number; tickets: number };
  'card-moved': { ticketId: number; uuid: string; fromLaneId: number | null; toLaneId: number | null };
  'card-opened': { ticketId: number; uuid: string };
  error: { code: string; message: string };
}

const ROW_HEIGHT = 116;
const RELOAD_DELAY_MS = 300;
const DEFAULT_KEY = 'default';
/** Cards of every lane in the first load, then pages of one lane as it scrolls (as the board, docs/kanban.md "Pages"). */
const FIRST_CARDS = 20;
const PAGE_CARDS = 50;
/** Rows either side of the rows in view whose page is loaded already. */
const PREFETCH_ROWS = 10;
/** A page that failed to load (the key's read limit, the network) is asked again after this long. */
const PAGE_RETRY_MS = 5_000;

const laneKey = (id: number | null) => (id === null ? DEFAULT_KEY : String(id));
const pageOf = (index: number) => Math.floor((index - FIRST_CARDS) / PAGE_CARDS);

/**
 * The embeddable kanban board: a Shadow DOM inside the target element with the key's lanes and their
 * cards (virtualised lanes), live over the key's event stream, drag to move when the key allows it.
 */
export class KanbanWidget {
  private readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly texts: WidgetTexts;
  private readonly board: HTMLDivElement;
  private readonly notice: HTMLDivElement;
  private data: WidgetBoard | null = null;
  /** Whether the board came as pages (else `data.tickets` is every card). */
  private paged = false;
  private lanes = new Map<string, LaneState>();
  /** Cards moved and not yet confirmed by a reload: shown first in their new lane, faded in the old one. */
  private moves = new Map<number, { card: WidgetCard; to: number | null }>();
  private readonly loadingPages = new Set<string>();
  /** When a page last failed to load (a refused or failed read is not asked again on every scroll event). */
  private readonly failedPages = new Map<string, number>();
  private stream: EventSource | null = null;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Map<string, Set<(detail: unknown) => void>>();
  private readonly lanePainters = new Map<string, (force?: boolean) => void>();
  private destroyed = false;
  private userToken: string | undefined;
  /** A drag in progress: a reload waits for its end, so the dragged card isn't replaced under it. */
  private dragging = false;
  private renderAfterDrag = false;

  constructor(private readonly options: WidgetOptions) {
    const target = typeof options.target === 'string' ? document.querySelector<HTMLElement>(options.target) : options.target;
    if (!target) throw new Error(`Balcão kanban: no element ${String(options.target)}`);
    this.host = target;
    this.texts = textsFor(options.lang);
    this.userToken = options.userToken;
    this.host.dataset.theme = options.theme === 'dark' ? 'dark' : 'light';
    this.root = this.host.shadowRoot ?? this.host.attachShadow({ mode: 'open' });
    this.root.innerHTML = '';
    const style = document.createElement('style');
    style.textContent = WIDGET_CSS;
    this.notice = document.createElement('div');
    this.notice.className = 'notice';
    this.notice.hidden = true;
    this.notice.setAttribute('role', 'status');
    this.board = document.createElement('div');
    this.board.className = 'board';
    this.board.setAttribute('part', 'board');
    this.board.innerHTML = `<div class="status">${escapeHtml(this.texts.loading)}</div>`;
    this.root.append(style, this.notice, this.board);
    void this.load(true);
  }

  /** Listens to a widget event; returns the function that stops. */
  on<E extends keyof WidgetEvents>(event: E, listener: (detail: WidgetEvents[E]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener as (detail: unknown) => void);
    this.listeners.set(event, set);
    return () => set.delete(listener as (detail: unknown) => void);
  }

  /** Signed-user mode: a fresh token from the embedding site (before the current one expires). */
  setUserToken(token: string | undefined): void {
    this.userToken = token;
  }

  /** Removes the board and closes its stream. */
  destroy(): void {
    this.destroyed = true;
    this.stream?.close();
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.root.innerHTML = '';
  }

  private url(path: string): string {
    return `${this.options.api.replace(/\/$/, '')}/kanban-embed/${encodeURIComponent(this.options.key)}${path}`;
  }

  private emit<E extends keyof WidgetEvents>(event: E, detail: WidgetEvents[E]): void {
    this.host.dispatchEvent(new CustomEvent(`balcao-kanban:${event}`, { detail, bubbles: true, composed: true }));
    for (const listener of this.listeners.get(event) ?? []) listener(detail);
  }

  private showNotice(text: string | null): void {
    this.notice.hidden = !text;
    this.notice.textContent = text ?? '';
  }

  private errorText(code: string | undefined, fallback: string): string {
    return (code && this.texts.errors[code]) || fallback;
  }

  private async load(first = false): Promise<void> {
    try {
      const response = await fetch(this.url(`/board?perLane=${FIRST_CARDS}`), { mode: 'cors', credentials: 'omit' });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        const code = (body as { error?: string }).error ?? `HTTP_${response.status}`;
        const message = this.errorText(code, this.texts.loadFailed);
        if (first) this.board.innerHTML = `<div class="status">${escapeHtml(message)}</div>`;
        this.emit('error', { code, message });
        return;
      }
      if (this.destroyed) return;
      this.data = body as WidgetBoard;
      this.takeBoard(this.data);
      if (this.dragging) this.renderAfterDrag = true;
      else this.render();
      if (first) {
        this.listen();
        const tickets = [...this.lanes.values()].reduce((sum, lane) => sum + lane.count, 0);
        this.emit('ready', { lanes: this.data.lanes.length, tickets });
      }
    } catch {
      if (first) this.board.innerHTML = `<div class="status">${escapeHtml(this.texts.loadFailed)}</div>`;
      this.emit('error', { code: 'NETWORK', message: this.texts.loadFailed });
    }
  }

  /**
   * Takes a fresh board: every lane's first cards and count (or, from a server answering the whole board,
   * every card). Pages loaded before stay shown, marked stale: the lanes in view fetch them again.
   */
  private takeBoard(data: WidgetBoard): void {
    this.paged = Array.isArray(data.laneCounts);
    const counts = new Map((data.laneCounts ?? []).map((lane) => [lane.laneId, lane.count]));
    const groups = groupByLane(data.tickets);
    const previous = this.lanes;
    this.lanes = new Map();
    this.moves.clear();
    const lanes = [
      ...(data.defaultLane ? [{ id: null as number | null, name: this.texts.defaultLane, color: '' }] : []),
      ...data.lanes.map((lane) => ({ id: lane.id as number | null, name: lane.name, color: lane.color })),
    ];
    for (const lane of lanes) {
      const key = laneKey(lane.id);
      const first = groups.get(lane.id) ?? [];
      const pages = new Map<number, { cards: WidgetCard[]; fresh: boolean }>();
      if (this.paged) for (const [page, { cards }] of previous.get(key)?.pages ?? []) pages.set(page, { cards, fresh: false });
      this.lanes.set(key, { ...lane, key, count: this.paged ? (counts.get(lane.id) ?? 0) : first.length, first, pages });
    }
  }

  /** Loads a page of a lane's cards (once at a time), then repaints the lane. */
  private async loadPage(lane: LaneState, page: number): Promise<void> {
    const loading = `${lane.key}:${page}`;
    if (this.loadingPages.has(loading) || Date.now() - (this.failedPages.get(loading) ?? 0) < PAGE_RETRY_MS) return;
    this.loadingPages.add(loading);
    try {
      const offset = FIRST_CARDS + page * PAGE_CARDS;
      const response = await fetch(this.url(`/board?lane=${lane.key}&offset=${offset}&limit=${PAGE_CARDS}`), {
        mode: 'cors',
        credentials: 'omit',
      });
      if (!response.ok) throw new Error(`HTTP_${response.status}`);
      if (this.destroyed) return;
      const body = (await response.json()) as WidgetBoard;
      // the board was reloaded meanwhile: the lane there is another object (its pages are fetched again)
      if (this.lanes.get(lane.key) !== lane) return;
      lane.pages.set(page, { cards: body.tickets, fresh: true });
      this.failedPages.delete(loading);
      this.lanePainters.get(lane.key)?.(true);
    } catch {
      // the rows stay placeholders; a scroll or reload asks again after PAGE_RETRY_MS
      this.failedPages.set(loading, Date.now());
    } finally {
      this.loadingPages.delete(loading);
    }
  }

  private reloadSoon(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.load(), RELOAD_DELAY_MS);
  }

  private listen(): void {
    if (typeof EventSource === 'undefined') return;
    const stream = new EventSource(this.url('/events'));
    this.stream = stream;
    stream.addEventListener('change', () => this.reloadSoon());
    stream.addEventListener('revoked', () => {
      stream.close();
      this.board.innerHTML = `<div class="status">${escapeHtml(this.texts.revoked)}</div>`;
      this.emit('error', { code: 'ERR_EMBED_KEY_REVOKED', message: this.texts.revoked });
    });
    // a reconnection after a drop may have missed changes (the first connection follows a fresh load)
    let connected = false;
    stream.addEventListener('ready', () => {
      if (connected) this.reloadSoon();
      connected = true;
    });
  }

  private render(): void {
    const data = this.data;
    if (!data) return;
    const scrolls = new Map<string, number>();
    for (const body of this.board.querySelectorAll<HTMLElement>('.lane-body'))
      scrolls.set(body.dataset.lane ?? '', body.scrollTop);
    this.board.replaceChildren();
    this.lanePainters.clear();
    const moved = [...this.moves.values()];
    for (const lane of this.lanes.values()) {
      const incoming = moved.filter((move) => move.to === lane.id).map((move) => ({ ...move.card, laneId: move.to }));
      const leaving = new Set(moved.filter((move) => move.card.laneId === lane.id).map((move) => move.card.id));
      const section = document.createElement('section');
      section.className = 'lane';
      section.dataset.lane = lane.key;
      section.setAttribute('part', 'lane');
      section.setAttribute('aria-label', lane.name);
      if (lane.color) section.style.setProperty('--lane-color', lane.color);
      const head = document.createElement('div');
      head.className = 'lane-head';
      const shown = lane.count + incoming.length - leaving.size;
      head.innerHTML = `<span>${escapeHtml(lane.name)}</span><span>${escapeHtml(this.texts.count(shown))}</span>`;
      const body = document.createElement('div');
      body.className = 'lane-body';
      body.dataset.lane = lane.key;
      section.append(head, body);
      this.board.append(section);
      if (data.mayMove) this.acceptDrops(section, lane.id);
      this.paintLane(lane, body, incoming, leaving, data.mayMove);
      body.scrollTop = scrolls.get(lane.key) ?? 0;
    }
  }

  /** A lane's card number `index` (the moved-in cards first), or undefined while its page loads. */
  private cardAt(lane: LaneState, incoming: WidgetCard[], index: number): WidgetCard | undefined {
    if (index < incoming.length) return incoming[index];
    const position = index - incoming.length;
    if (!this.paged || position < FIRST_CARDS) return lane.first[position];
    return lane.pages.get(pageOf(position))?.cards[(position - FIRST_CARDS) % PAGE_CARDS];
  }

  /** Renders the cards of a lane in view (fixed rows), again on scroll; loads the pages they need. */
  private paintLane(lane: LaneState, body: HTMLElement, incoming: WidgetCard[], leaving: Set<number>, mayMove: boolean): void {
    const count = lane.count + incoming.length;
    if (count === 0) {
      body.innerHTML = `<div class="empty">${escapeHtml(this.texts.empty)}</div>`;
      return;
    }
    const spacer = document.createElement('div');
    spacer.className = 'spacer';
    spacer.style.height = `${count * ROW_HEIGHT}px`;
    body.append(spacer);
    let painted = '';
    const paint = (force = false) => {
      const { start, end } = visibleWindow(count, ROW_HEIGHT, body.scrollTop, body.clientHeight || 600);
      const range = `${start}:${end}`;
      if (this.paged) {
        // the lane's own cards (past the moved-in ones and the first cards) in view and close to it
        // (no prefetch before the lane is scrolled: a tall screen's first rows don't ask for a page each lane)
        const margin = start > 0 ? PREFETCH_ROWS : 0;
        const from = Math.max(start - incoming.length - margin, FIRST_CARDS);
        const to = Math.min(end - incoming.length + margin, lane.count) - 1;
        for (let page = pageOf(from); to >= from && page <= pageOf(to); page++) {
          if (!lane.pages.get(page)?.fresh) void this.loadPage(lane, page);
        }
      }
      if (range === painted && !force) return;
      painted = range;
      const rows: HTMLElement[] = [];
      for (let index = start; index < end; index++) {
        const card = this.cardAt(lane, incoming, index);
        rows.push(
          card ? this.cardRow(card, index, mayMove && !leaving.has(card.id), leaving.has(card.id)) : placeholderRow(index),
        );
      }
      spacer.replaceChildren(...rows);
    };
    this.lanePainters.set(lane.key, paint);
    body.addEventListener('scroll', () => paint(), { passive: true });
    paint();
    // the first paint may run before layout gives the lane its height
    requestAnimationFrame(() => paint());
  }

  private cardRow(card: WidgetCard, index: number, mayMove: boolean, moving = false): HTMLElement {
    const row = document.createElement('div');
    row.className = 'row';
    row.style.top = `${index * ROW_HEIGHT}px`;
    row.style.height = `${ROW_HEIGHT}px`;
    const element = document.createElement('article');
    element.className = `card${card.unreadMessages > 0 ? ' unread' : ''}${moving ? ' moving' : ''}`;
    element.dataset.ticketId = String(card.id);
    element.setAttribute('part', 'card');
    element.draggable = mayMove;
    element.innerHTML = `
      <div class="top"><span class="name">#${card.id} ${escapeHtml(card.contact.name)}</span><span class="muted">${escapeHtml(cardTime(card.updatedAt))}</span></div>
      <div class="muted">${escapeHtml(card.contact.number ?? '')} · ${escapeHtml(card.channel)}</div>
      <div class="top"><span class="msg">${markupHtml(card.lastMessage)}</span>${card.unreadMessages > 0 ? `<span class="badge">${card.unreadMessages}</span>` : ''}</div>
      <div class="bottom">${card.user ? `<span class="user">${escapeHtml(card.user.name)}</span>` : `<span class="muted">${escapeHtml(this.texts.noUser)}</span>`}<button type="button" class="open">${escapeHtml(this.texts.open)}</button></div>`;
    element
      .querySelector('button')
      ?.addEventListener('click', () => this.emit('card-opened', { ticketId: card.id, uuid: card.uuid }));
    if (mayMove) {
      element.addEventListener('dragstart', (event) => {
        event.dataTransfer?.setData('text/plain', JSON.stringify({ ticketId: card.id }));
        if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
        this.dragging = true;
      });
      element.addEventListener('dragend', () => this.endDrag());
    }
    row.append(element);
    return row;
  }

  private acceptDrops(section: HTMLElement, laneId: number | null): void {
    section.addEventListener('dragover', (event) => {
      event.preventDefault();
      section.classList.add('over');
    });
    section.addEventListener('dragleave', () => section.classList.remove('over'));
    section.addEventListener('drop', (event) => {
      event.preventDefault();
      section.classList.remove('over');
      this.endDrag();
      try {
        const { ticketId } = JSON.parse(event.dataTransfer?.getData('text/plain') ?? '') as { ticketId: number };
        if (typeof ticketId === 'number') void this.move(ticketId, laneId);
      } catch {
        // not one of our cards
      }
    });
  }

  private endDrag(): void {
    if (!this.dragging) return;
    this.dragging = false;
    if (this.renderAfterDrag) {
      this.renderAfterDrag = false;
      this.render();
    }
  }

  /** A card the widget has loaded (in its first cards or a page), by ticket id. */
  private loadedCard(ticketId: number): WidgetCard | undefined {
    for (const lane of this.lanes.values()) {
      const card =
        lane.first.find((candidate) => candidate.id === ticketId) ??
        [...lane.pages.values()].flatMap((page) => page.cards).find((candidate) => candidate.id === ticketId);
      if (card) return card;
    }
    return undefined;
  }

  /** Moves a card: shown at once, confirmed by the server (or put back with the reason). */
  async move(ticketId: number, toLaneId: number | null): Promise<void> {
    const pending = this.moves.get(ticketId);
    const card = pending?.card ?? this.loadedCard(ticketId);
    // where the card is now shown: where a move not yet confirmed took it, else where it was loaded
    const fromLaneId = pending ? pending.to : card?.laneId;
    if (!card || fromLaneId === undefined || fromLaneId === toLaneId || !this.lanes.has(laneKey(toLaneId))) return;
    const before = new Map(this.moves);
    if (card.laneId === toLaneId) this.moves.delete(ticketId);
    else this.moves.set(ticketId, { card, to: toLaneId });
    this.render();
    try {
      const response = await fetch(this.url('/moves'), {
        method: 'POST',
        mode: 'cors',
        credentials: 'omit',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ticketId, laneId: toLaneId, ...(this.userToken ? { userToken: this.userToken } : {}) }),
      });
      if (!response.ok) {
        const code = ((await response.json().catch(() => ({}))) as { error?: string }).error ?? `HTTP_${response.status}`;
        throw Object.assign(new Error(code), { code });
      }
      this.showNotice(null);
      this.emit('card-moved', { ticketId, uuid: card.uuid, fromLaneId, toLaneId });
    } catch (error) {
      this.moves = before;
      this.render();
      const code = (error as { code?: string }).code ?? 'NETWORK';
      const message = this.errorText(code, this.texts.moveFailed);
      this.showNotice(message);
      this.emit('error', { code, message });
    }
  }
}

/** A row whose card is on its way (its lane's page is loading). */
function placeholderRow(index: number): HTMLElement {
  const row = document.createElement('div');
  row.className = 'row';
  row.style.top = `${index * ROW_HEIGHT}px`;
  row.style.height = `${ROW_HEIGHT}px`;
  row.innerHTML = '<div class="card placeholder" aria-hidden="true"></div>';
  return row;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A card's last message with its chat markup as emphasis — the SDK's one reading (`parseChatMarkup`), as the
 * board and the inbox show it. Every text is escaped; only the fixed emphasis tags are markup (addresses
 * stay text: the card is one link already).
 */
function markupHtml(text: string): string {
  return parseChatMarkup(text)
    .map((segment) => {
      let html = escapeHtml(segment.text);
      if (segment.mono) html = `<code>${html}</code>`;
      if (segment.strike) html = `<s>${html}</s>`;
      if (segment.italic) html = `<em>${html}</em>`;
      if (segment.bold) html = `<strong>${html}</strong>`;
      return html;
    })
    .join('');
}
