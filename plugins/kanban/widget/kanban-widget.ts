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

/** `GET /kanban-embed/:key/board`. */
export interface WidgetBoard {
  name: string;
  mayMove: boolean;
  signedUsers: boolean;
  defaultLane: boolean;
  lanes: Array<{ id: number; name: string; color: string }>;
  tickets: WidgetCard[];
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
  private stream: EventSource | null = null;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Map<string, Set<(detail: unknown) => void>>();
  private readonly lanePainters = new Map<string, () => void>();
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
      const response = await fetch(this.url('/board'), { mode: 'cors', credentials: 'omit' });
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
      if (this.dragging) this.renderAfterDrag = true;
      else this.render();
      if (first) {
        this.listen();
        this.emit('ready', { lanes: this.data.lanes.length, tickets: this.data.tickets.length });
      }
    } catch {
      if (first) this.board.innerHTML = `<div class="status">${escapeHtml(this.texts.loadFailed)}</div>`;
      this.emit('error', { code: 'NETWORK', message: this.texts.loadFailed });
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
    const groups = groupByLane(data.tickets);
    const lanes = [
      ...(data.defaultLane ? [{ key: DEFAULT_KEY, id: null as number | null, name: this.texts.defaultLane, color: '' }] : []),
      ...data.lanes.map((lane) => ({ key: String(lane.id), id: lane.id as number | null, name: lane.name, color: lane.color })),
    ];
    const scrolls = new Map<string, number>();
    for (const body of this.board.querySelectorAll<HTMLElement>('.lane-body'))
      scrolls.set(body.dataset.lane ?? '', body.scrollTop);
    this.board.replaceChildren();
    this.lanePainters.clear();
    for (const lane of lanes) {
      const cards = groups.get(lane.id) ?? [];
      const section = document.createElement('section');
      section.className = 'lane';
      section.dataset.lane = lane.key;
      section.setAttribute('part', 'lane');
      section.setAttribute('aria-label', lane.name);
      if (lane.color) section.style.setProperty('--lane-color', lane.color);
      const head = document.createElement('div');
      head.className = 'lane-head';
      head.innerHTML = `<span>${escapeHtml(lane.name)}</span><span>${escapeHtml(this.texts.count(cards.length))}</span>`;
      const body = document.createElement('div');
      body.className = 'lane-body';
      body.dataset.lane = lane.key;
      section.append(head, body);
      this.board.append(section);
      if (data.mayMove) this.acceptDrops(section, lane.id);
      this.paintLane(lane.key, body, cards, data.mayMove);
      body.scrollTop = scrolls.get(lane.key) ?? 0;
    }
  }

  /** Renders the cards of a lane in view (fixed rows), again on scroll. */
  private paintLane(key: string, body: HTMLElement, cards: WidgetCard[], mayMove: boolean): void {
    if (cards.length === 0) {
      body.innerHTML = `<div class="empty">${escapeHtml(this.texts.empty)}</div>`;
      return;
    }
    const spacer = document.createElement('div');
    spacer.className = 'spacer';
    spacer.style.height = `${cards.length * ROW_HEIGHT}px`;
    body.append(spacer);
    let painted = '';
    const paint = () => {
      const { start, end } = visibleWindow(cards.length, ROW_HEIGHT, body.scrollTop, body.clientHeight || 600);
      const range = `${start}:${end}`;
      if (range === painted) return;
      painted = range;
      spacer.replaceChildren(...cards.slice(start, end).map((card, offset) => this.cardRow(card, start + offset, mayMove)));
    };
    this.lanePainters.set(key, paint);
    body.addEventListener('scroll', paint, { passive: true });
    paint();
    // the first paint may run before layout gives the lane its height
    requestAnimationFrame(paint);
  }

  private cardRow(card: WidgetCard, index: number, mayMove: boolean): HTMLElement {
    const row = document.createElement('div');
    row.className = 'row';
    row.style.top = `${index * ROW_HEIGHT}px`;
    row.style.height = `${ROW_HEIGHT}px`;
    const element = document.createElement('article');
    element.className = card.unreadMessages > 0 ? 'card unread' : 'card';
    element.dataset.ticketId = String(card.id);
    element.setAttribute('part', 'card');
    element.draggable = mayMove;
    element.innerHTML = `
      <div class="top"><span class="name">#${card.id} ${escapeHtml(card.contact.name)}</span><span class="muted">${escapeHtml(cardTime(card.updatedAt))}</span></div>
      <div class="muted">${escapeHtml(card.contact.number ?? '')} · ${escapeHtml(card.channel)}</div>
      <div class="top"><span class="msg">${escapeHtml(card.lastMessage)}</span>${card.unreadMessages > 0 ? `<span class="badge">${card.unreadMessages}</span>` : ''}</div>
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

  /** Moves a card: shown at once, confirmed by the server (or put back with the reason). */
  async move(ticketId: number, toLaneId: number | null): Promise<void> {
    const card = this.data?.tickets.find((candidate) => candidate.id === ticketId);
    if (!card || card.laneId === toLaneId) return;
    const fromLaneId = card.laneId;
    card.laneId = toLaneId;
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
      card.laneId = fromLaneId;
      this.render();
      const code = (error as { code?: string }).code ?? 'NETWORK';
      const message = this.errorText(code, this.texts.moveFailed);
      this.showNotice(message);
      this.emit('error', { code, message });
    }
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
