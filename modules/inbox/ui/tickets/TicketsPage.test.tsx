import { narrowScreen, renderPage, serveApi, signIn } from '@balcao/plugin-sdk/testing/ui';
import { store } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { queuesUsersApi } from './api/queues-users';
import { ticketsLocales } from './index';
import TicketsPage from './TicketsPage';
import { makeTicket } from './testing/fixtures';

const ticket = makeTicket(1, { userId: 1, user: { id: 1, name: 'Ana' } });
function serveTicket() {
  return serveApi((call) => {
    if (call.method === 'PUT' && call.path === '/users/toggleChangeWidht/1') {
      return { status: 200, body: call.body };
    }
    if (call.method !== 'GET') return undefined;
    if (call.path === '/tickets') {
      const tickets = call.query.get('status') === 'open' ? [ticket] : [];
      return { status: 200, body: { tickets, hasMore: false, count: tickets.length } };
    }
    if (call.path === `/tickets/u/${ticket.uuid}`) return { status: 200, body: ticket };
    if (call.path === `/messages/${ticket.uuid}`) {
      return { status: 200, body: { messages: [], ticket, count: 0, hasMore: false } };
    }
    return undefined;
  });
}

async function renderTicketsPage(route: string, signedIn = false) {
  if (!signedIn) await signIn({ namespace: 'inbox', translations: ticketsLocales }, { allowGroup: false });
  return renderPage(
    <Routes>
      <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
    </Routes>,
    route,
  );
}

const tab = (name: string) => screen.getByRole('tab', { name });

describe('the Tickets screen on a narrow screen (docs/product/tickets-and-inbox.md#screens-and-routes: two tabs, Ticket and Atendimentos)', () => {
  // the function narrowScreen returns puts the wide screen back after each test
  beforeEach(narrowScreen);

  it('shows the ticket again when the ticket on the Atendimentos tab is the one already open', async () => {
    serveTicket();
    await renderTicketsPage(`/tickets/${ticket.uuid}`);
    expect(tab('Ticket').getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByTestId('ticket-view', {}, { timeout: 3000 })).toBeTruthy();

    fireEvent.click(tab('Atendimentos'));
    await waitFor(() => expect(tab('Atendimentos').getAttribute('aria-selected')).toBe('true'));
    const item = await screen.findByTestId('ticket-item');
    fireEvent.click(within(item).getByRole('link'));

    await waitFor(() => expect(tab('Ticket').getAttribute('aria-selected')).toBe('true'));
    expect(await screen.findByTestId('ticket-view', {}, { timeout: 3000 })).toBeTruthy();
  });
});

describe('the Tickets screen on a wide screen (docs/product/tickets-and-inbox.md#screens-and-routes: the list panel, 404 to 700 px, saved on release)', () => {
  const listPanel = () => document.querySelector<HTMLElement>('.ant-splitter-panel');

  it('opens at the width saved earlier in the session, not at the one the session started with', async () => {
    const calls = serveTicket();
    await signIn({ namespace: 'inbox', translations: ticketsLocales }, { defaultTicketsManagerWidth: 550 });
    const first = await renderTicketsPage('/tickets', true);
    await waitFor(() => expect(listPanel()?.style.flexBasis).toBe('550px'));
    first.unmount();

    // a drag released at 650 px saves it
    await store.dispatch(queuesUsersApi.endpoints.saveTicketsPanelWidth.initiate({ userId: 1, width: 650 })).unwrap();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ defaultTicketsManagerWidth: 650 });

    // back to the screen later in the same session
    await renderTicketsPage('/tickets', true);
    await waitFor(() => expect(listPanel()?.style.flexBasis).toBe('650px'));
  });
});
