import { renderPage, serveApi, signIn } from '@balcao/plugin-sdk/testing/ui';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TICKETS_PAGE_SIZE } from '../../../../shared/types';
import { ticketsLocales } from '../../index';
import type { TicketListArgs } from '../../logic/ticket-list';
import { makeTicket } from '../../testing/fixtures';
import { TicketActionsProvider } from '../TicketActionsProvider';
import { TicketsList } from './TicketsList';

/** happy-dom lays nothing out: the list's box and content heights as a browser would measure them. */
function layOut(box: { clientHeight: number; scrollHeight: number }): void {
  for (const [key, value] of Object.entries(box)) {
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
  }
}

afterEach(() => {
  for (const key of ['clientHeight', 'scrollHeight']) Reflect.deleteProperty(HTMLElement.prototype, key);
});

/** Two pages of the open tab: a full first page, then 3 more. */
function serveTwoPages() {
  return serveApi((call) => {
    if (call.method !== 'GET' || call.path !== '/tickets') return undefined;
    const page = Number(call.query.get('pageNumber'));
    const first = page === 1;
    const ids = first
      ? Array.from({ length: TICKETS_PAGE_SIZE }, (_, index) => index + 1)
      : [TICKETS_PAGE_SIZE + 1, TICKETS_PAGE_SIZE + 2, TICKETS_PAGE_SIZE + 3];
    return {
      status: 200,
      body: { tickets: ids.map((id) => makeTicket(id, { userId: 1 })), hasMore: first, count: TICKETS_PAGE_SIZE + 3 },
    };
  });
}

async function renderOpenTab() {
  await signIn({ namespace: 'inbox', translations: ticketsLocales });
  renderPage(
    <TicketActionsProvider>
      <TicketsList args={{ status: 'open' }} selectedUuid={null} active />
    </TicketActionsProvider>,
    '/tickets',
  );
}

const pagesAsked = (calls: ReturnType<typeof serveApi>) =>
  calls.filter((call) => call.path === '/tickets').map((call) => call.query.get('pageNumber'));

describe('the tickets list pages', () => {
  it('loads the next page at once when the first does not fill the list (a tall screen)', async () => {
    layOut({ clientHeight: 2400, scrollHeight: 2000 });
    const calls = serveTwoPages();
    await renderOpenTab();
    expect(await screen.findByText(`Contato ${TICKETS_PAGE_SIZE + 3}`)).toBeTruthy();
    expect(pagesAsked(calls)).toEqual(['1', '2']);
  });

  it('waits for the scroll when the first page fills the list', async () => {
    layOut({ clientHeight: 600, scrollHeight: 2000 });
    const calls = serveTwoPages();
    await renderOpenTab();
    expect(await screen.findByText(`Contato ${TICKETS_PAGE_SIZE}`)).toBeTruthy();
    // give a wrongly eager list the time to ask
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pagesAsked(calls)).toEqual(['1']);
    layOut({ clientHeight: 600, scrollHeight: 650 });
    screen.getByTestId('tickets-list').dispatchEvent(new Event('scroll'));
    await waitFor(() => expect(pagesAsked(calls)).toEqual(['1', '2']));
  });
});

/** The list of the closed view, then (a button) of a search, as the panel's one non-tab list is reused. */
function SwitchingList() {
  const [args, setArgs] = useState<TicketListArgs>({ status: 'closed' });
  return (
    <TicketActionsProvider>
      <button type="button" onClick={() => setArgs({ searchParam: 'maria' })}>
        buscar
      </button>
      <TicketsList args={args} selectedUuid={null} active />
    </TicketActionsProvider>
  );
}

describe('the tickets list while a new question loads (docs/product/tickets-and-inbox.md#screens-and-routes: a skeleton while loading)', () => {
  it("shows the skeleton, not the previous question's tickets, until the new answer comes", async () => {
    let answerSearch: () => void = () => {};
    const searchAnswered = new Promise<void>((resolve) => {
      answerSearch = resolve;
    });
    serveApi((call) => {
      if (call.method !== 'GET' || call.path !== '/tickets') return undefined;
      const searching = call.query.get('searchParam') === 'maria';
      const tickets = searching ? [makeTicket(2, { status: 'open' })] : [makeTicket(1, { status: 'closed' })];
      return { status: 200, body: { tickets, hasMore: false, count: tickets.length } };
    });
    const served = globalThis.fetch;
    // the search's answer waits until the test lets it go
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('searchParam=maria')) await searchAnswered;
      return served(input, init);
    }) as typeof fetch;
    await signIn({ namespace: 'inbox', translations: ticketsLocales });
    renderPage(<SwitchingList />, '/tickets');
    expect(await screen.findByText('Contato 1')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'buscar' }));
    expect(await screen.findByTestId('tickets-skeleton')).toBeTruthy();
    expect(screen.queryByText('Contato 1')).toBeNull();

    answerSearch();
    expect(await screen.findByText('Contato 2')).toBeTruthy();
    expect(screen.queryByTestId('tickets-skeleton')).toBeNull();
    expect(screen.queryByText('Contato 1')).toBeNull();
  });
});
