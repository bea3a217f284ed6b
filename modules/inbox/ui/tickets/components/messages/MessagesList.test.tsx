import { renderPage, serveApi, signIn } from '@balcao/plugin-sdk/testing/ui';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ticketsLocales } from '../../index';
import { makeMessage, makeTicket } from '../../testing/fixtures';
import { TicketActionsProvider } from '../TicketActionsProvider';
import { MessagesList } from './MessagesList';

/** happy-dom lays nothing out: the list's box and content heights as a browser would measure them. */
function layOut(box: { clientHeight: number; scrollHeight: number }): void {
  for (const [key, value] of Object.entries(box)) {
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
  }
}

afterEach(() => {
  for (const key of ['clientHeight', 'scrollHeight']) Reflect.deleteProperty(HTMLElement.prototype, key);
});

const ticket = makeTicket(1, { userId: 1, user: { id: 1, name: 'Ana' } });

/** Two pages of the conversation: the latest (page 1, more to come), then an older one. */
function serveTwoPages() {
  return serveApi((call) => {
    if (call.method !== 'GET' || call.path !== `/messages/${ticket.uuid}`) return undefined;
    const first = call.query.get('pageNumber') === '1';
    const messages = first
      ? [makeMessage(3, { body: 'a mais nova' }), makeMessage(4, { body: 'a última' })]
      : [makeMessage(1, { body: 'a mais antiga' }), makeMessage(2, { body: 'a segunda' })];
    return { status: 200, body: { messages, ticket, count: 4, hasMore: first } };
  });
}

async function renderConversation() {
  await signIn({ namespace: 'inbox', translations: ticketsLocales });
  renderPage(
    <TicketActionsProvider>
      <MessagesList ticket={ticket} onReply={() => {}} />
    </TicketActionsProvider>,
    `/tickets/${ticket.uuid}`,
  );
}

const pagesAsked = (calls: ReturnType<typeof serveApi>) =>
  calls.filter((call) => call.path === `/messages/${ticket.uuid}`).map((call) => call.query.get('pageNumber'));

describe('the conversation pages upward (docs/product/tickets-and-inbox.md#screens-and-routes, #constants-and-limits)', () => {
  it('loads older pages at once when the latest page does not fill the list (nothing to scroll up with)', async () => {
    layOut({ clientHeight: 2400, scrollHeight: 2000 });
    const calls = serveTwoPages();
    await renderConversation();
    expect(await screen.findByText('a mais antiga')).toBeTruthy();
    expect(screen.getByText('a última')).toBeTruthy();
    expect(pagesAsked(calls)).toEqual(['1', '2']);
  });

  it('waits for the scroll to the top when the latest page fills the list', async () => {
    layOut({ clientHeight: 600, scrollHeight: 2000 });
    const calls = serveTwoPages();
    await renderConversation();
    expect(await screen.findByText('a última')).toBeTruthy();
    // give a wrongly eager list the time to ask
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pagesAsked(calls)).toEqual(['1']);
    expect(screen.queryByText('a mais antiga')).toBeNull();
  });
});
