import { afterEach, describe, expect, it } from 'vitest';
import { KanbanWidget, type WidgetBoard, type WidgetCard } from '../widget/kanban-widget';

/** The embeddable widget (plugins/kanban/widget) in a DOM: Shadow DOM, lanes, moves, events, i18n, theme. */

const board = (fields: Partial<WidgetBoard> = {}): WidgetBoard => ({
  name: 'Loja',
  mayMove: true,
  signedUsers: false,
  defaultLane: true,
  lanes: [
    { id: 7, name: 'Proposta', color: '#1677FF' },
    { id: 8, name: 'Fechado', color: '#52C41A' },
  ],
  tickets: [
    {
      id: 1,
      uuid: 'u-1',
      channel: 'whatsapp',
      contact: { name: 'Maria <b>', number: '*********21' },
      lastMessage: 'Quero um orçamento',
      unreadMessages: 2,
      updatedAt: '2024-03-05T10:00:00.000Z',
      user: { name: 'Bruno' },
      laneId: 7,
    },
  ],
  ...fields,
});

interface Call {
  method: string;
  url: string;
  body: unknown;
}

function serve(answer: (call: Call) => { status: number; body: unknown }): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = {
      method: init?.method ?? 'GET',
      url: String(input),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const { status, body } = answer(call);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return calls;
}

/**
 * A stand-in of the browser's EventSource (happy-dom's would open a real connection to the test's
 * made-up host): it records the streams the widget opens and lets a test deliver their events.
 */
class StreamStandIn {
  static opened: StreamStandIn[] = [];
  readonly listeners = new Map<string, Array<() => void>>();
  closed = false;
  constructor(readonly url: string) {
    StreamStandIn.opened.push(this);
  }
  addEventListener(type: string, listener: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  deliver(type: string) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }
  close() {
    this.closed = true;
  }
}
globalThis.EventSource = StreamStandIn as unknown as typeof EventSource;

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
let widget: KanbanWidget | null = null;
afterEach(() => {
  widget?.destroy();
  widget = null;
  document.body.innerHTML = '';
});

function mount(options: { lang?: string; theme?: 'light' | 'dark'; userToken?: string } = {}) {
  const target = document.createElement('div');
  target.id = 'board';
  document.body.append(target);
  const ready: unknown[] = [];
  target.addEventListener('balcao-kanban:ready', (event) => ready.push((event as CustomEvent).detail));
  widget = new KanbanWidget({ key: 'kbk_test', target: '#board', api: 'https://balcao.test/api', ...options });
  return { target, ready, shadow: target.shadowRoot as ShadowRoot };
}

describe('the kanban widget', () => {
  it('renders the lanes and cards inside a Shadow DOM, escaped, and says ready', async () => {
    const calls = serve(() => ({ status: 200, body: board() }));
    const { target, shadow, ready } = mount();
    await settle();
    // the first cards of every lane (docs/kanban.md "Pages"); this board answers whole, as a server without paging would
    expect(calls[0]?.url).toBe('https://balcao.test/api/kanban-embed/kbk_test/board?perLane=20');
    expect(target.children).toHaveLength(0);
    const lanes = [...shadow.querySelectorAll('section.lane')].map((lane) => lane.getAttribute('aria-label'));
    expect(lanes).toEqual(['Em aberto', 'Proposta', 'Fechado']);
    const card = shadow.querySelector('[data-ticket-id="1"]') as HTMLElement;
    expect(card.textContent).toContain('#1 Maria <b>');
    expect(card.querySelector('b')).toBeNull();
    expect(card.textContent).toContain('Quero um orçamento');
    expect(card.textContent).toContain('Bruno');
    expect(card.classList.contains('unread')).toBe(true);
    expect(ready).toEqual([{ lanes: 2, tickets: 1 }]);
  });

  it('follows its event stream: a change reloads the board', async () => {
    StreamStandIn.opened = [];
    const calls = serve(() => ({ status: 200, body: board() }));
    mount();
    await settle();
    const [stream] = StreamStandIn.opened;
    expect(stream?.url).toBe('https://balcao.test/api/kanban-embed/kbk_test/events');
    expect(calls).toHaveLength(1);
    stream?.deliver('change');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(calls).toHaveLength(2);
    widget?.destroy();
    widget = null;
    expect(stream?.closed).toBe(true);
  });

  it('speaks the language asked for and takes the dark theme', async () => {
    serve(() => ({ status: 200, body: board({ tickets: [] }) }));
    const { target, shadow } = mount({ lang: 'en', theme: 'dark' });
    await settle();
    expect(target.dataset.theme).toBe('dark');
    expect(shadow.querySelector('section.lane')?.getAttribute('aria-label')).toBe('Open');
    expect(shadow.textContent).toContain('No tickets');
  });

  it('moves a card with its user token and tells the page, and puts it back with the reason on a refusal', async () => {
    let refuse = false;
    const calls = serve((call) =>
      call.method === 'POST'
        ? refuse
          ? { status: 403, body: { error: 'ERR_EMBED_READ_ONLY' } }
          : { status: 200, body: { ticketId: 1, laneId: 8 } }
        : { status: 200, body: board() },
    );
    const { target, shadow } = mount({ userToken: 'signed.token' });
    await settle();
    const moved: unknown[] = [];
    target.addEventListener('balcao-kanban:card-moved', (event) => moved.push((event as CustomEvent).detail));
    await widget?.move(1, 8);
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      url: 'https://balcao.test/api/kanban-embed/kbk_test/moves',
      body: { ticketId: 1, laneId: 8, userToken: 'signed.token' },
    });
    expect(moved).toEqual([{ ticketId: 1, uuid: 'u-1', fromLaneId: 7, toLaneId: 8 }]);
    expect(shadow.querySelector('section[data-lane="8"] [data-ticket-id="1"]')).not.toBeNull();

    refuse = true;
    await widget?.move(1, 7);
    expect(shadow.querySelector('section[data-lane="8"] [data-ticket-id="1"]')).not.toBeNull();
    expect(shadow.querySelector('.notice')?.textContent).toBe('Este quadro é somente leitura.');
  });

  it("sends card-opened when a card's button is pressed", async () => {
    serve(() => ({ status: 200, body: board() }));
    const { target, shadow } = mount();
    await settle();
    const opened: unknown[] = [];
    target.addEventListener('balcao-kanban:card-opened', (event) => opened.push((event as CustomEvent).detail));
    (shadow.querySelector('[data-ticket-id="1"] button') as HTMLButtonElement).click();
    expect(opened).toEqual([{ ticketId: 1, uuid: 'u-1' }]);
  });

  it('shows why a board cannot load', async () => {
    serve(() => ({ status: 403, body: { error: 'ERR_EMBED_ORIGIN_REFUSED' } }));
    const { shadow } = mount();
    await settle();
    expect(shadow.textContent).toContain('Este site não pode mostrar este quadro.');
  });

  it("loads every lane's first cards with the counts, then a lane's further cards as it scrolls to them", async () => {
    const [first] = board().tickets as [WidgetCard];
    const calls = serve((call) => {
      const query = new URL(call.url).searchParams;
      if (query.get('lane') === '7') {
        const offset = Number(query.get('offset'));
        const tickets = Array.from({ length: 50 }, (_unused, index) => ({ ...first, id: 100 + offset + index, laneId: 7 }));
        return { status: 200, body: board({ tickets, laneCounts: [{ laneId: 7, count: 120 }] }) };
      }
      const tickets = Array.from({ length: 20 }, (_unused, index) => ({ ...first, id: 100 + index, laneId: 7 }));
      const laneCounts = [
        { laneId: null, count: 0 },
        { laneId: 7, count: 120 },
        { laneId: 8, count: 0 },
      ];
      return { status: 200, body: board({ tickets, laneCounts }) };
    });
    const { shadow, ready } = mount();
    await settle();
    expect(ready).toEqual([{ lanes: 2, tickets: 120 }]);
    expect(shadow.querySelector('section[data-lane="7"] .lane-head')?.textContent).toContain('120 tickets');
    expect(calls).toHaveLength(1);
    const body = shadow.querySelector('.lane-body[data-lane="7"]') as HTMLElement;
    body.scrollTop = 116 * 40;
    body.dispatchEvent(new Event('scroll'));
    await settle();
    expect(calls.map((call) => call.url)).toEqual([
      'https://balcao.test/api/kanban-embed/kbk_test/board?perLane=20',
      'https://balcao.test/api/kanban-embed/kbk_test/board?lane=7&offset=20&limit=50',
    ]);
    // row 40 of the lane: card 40, from the page of 50 from offset 20
    expect(shadow.querySelector('section[data-lane="7"] [data-ticket-id="140"]')).not.toBeNull();
    expect(shadow.querySelectorAll('section[data-lane="7"] [data-ticket-id]').length).toBeLessThan(30);
  });

  it('does not ask again on every scroll for a page the server refused (the read limit)', async () => {
    const [first] = board().tickets as [WidgetCard];
    const calls = serve((call) => {
      if (new URL(call.url).searchParams.has('lane')) return { status: 429, body: { error: 'ERR_RATE_LIMITED' } };
      const tickets = Array.from({ length: 20 }, (_unused, index) => ({ ...first, id: 100 + index, laneId: 7 }));
      return { status: 200, body: board({ tickets, laneCounts: [{ laneId: 7, count: 120 }] }) };
    });
    const { shadow } = mount();
    await settle();
    const body = shadow.querySelector('.lane-body[data-lane="7"]') as HTMLElement;
    for (const row of [40, 41, 42]) {
      body.scrollTop = 116 * row;
      body.dispatchEvent(new Event('scroll'));
      await settle();
    }
    expect(calls.filter((call) => call.url.includes('lane=7'))).toHaveLength(1);
    expect(shadow.querySelectorAll('section[data-lane="7"] .placeholder').length).toBeGreaterThan(0);
  });

  it('keeps a lane of 5,000 cards to a window of rows', async () => {
    const [first] = board().tickets as [WidgetCard];
    const tickets = Array.from({ length: 5_000 }, (_unused, index) => ({ ...first, id: index + 1, laneId: 7 }));
    serve(() => ({ status: 200, body: board({ tickets }) }));
    const { shadow } = mount();
    await settle();
    const rendered = shadow.querySelectorAll('section[data-lane="7"] [data-ticket-id]').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(30);
  });
});
