import { i18n, registerTranslations, type SessionUser, sessionStarted, store } from '@balcao/plugin-sdk/ui';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { ticketsLocales } from '../../index';
import { makeTicket } from '../../testing/fixtures';
import { TicketActionsProvider } from '../TicketActionsProvider';
import { TicketListItem } from './TicketListItem';

function signIn(fields: Partial<SessionUser>): void {
  store.dispatch(
    sessionStarted({
      id: 7,
      name: 'Ana',
      email: 'ana@acme.test',
      companyId: 1,
      profile: 'user',
      super: false,
      showDashboard: 'disabled',
      allowRealTime: 'disabled',
      allowConnections: 'disabled',
      allTicket: 'disable',
      allowGroup: false,
      allHistoric: 'disabled',
      allUserChat: 'disabled',
      userClosePendingTicket: 'disabled',
      defaultTheme: 'light',
      defaultMenu: 'open',
      defaultTicketsManagerWidth: 550,
      profileImage: null,
      online: true,
      company: { id: 1, name: 'Acme', dueDate: '2999-12-31', companieSettings: [] },
      queues: [{ id: 1, name: 'Vendas', color: '#00AA00' }],
      ...fields,
    }),
  );
}

function renderItem(ui: ReactNode) {
  return render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/tickets']}>
          <TicketActionsProvider>{ui}</TicketActionsProvider>
        </MemoryRouter>
      </I18nextProvider>
    </Provider>,
  );
}

describe('a ticket of the list (docs/product/tickets-and-inbox.md#screens-and-routes)', () => {
  beforeAll(async () => {
    await registerTranslations('inbox', ticketsLocales);
  });

  it('shows picture, name, preview cut to 40, queue, two tags and +N, unread count and rating; links to the ticket', () => {
    signIn({});
    const ticket = makeTicket(1, {
      status: 'open',
      lastMessage: 'Uma mensagem bem comprida que passa dos quarenta caracteres',
      unreadMessages: 3,
      userRating: { rate: 10 },
      tags: [
        { id: 1, name: 'vip', color: '#f00' },
        { id: 2, name: 'atacado', color: '#0f0' },
        { id: 3, name: 'sp', color: '#00f' },
      ],
    });
    renderItem(<TicketListItem ticket={ticket} selected={false} showUser={false} />);
    const item = screen.getByTestId('ticket-item');
    expect(within(item).getByText('Contato 1')).toBeTruthy();
    expect(within(item).getByText('Uma mensagem bem comprida que passa dos ...')).toBeTruthy();
    expect(within(item).getByText('Vendas')).toBeTruthy();
    expect(within(item).getByText('vip')).toBeTruthy();
    expect(within(item).getByText('atacado')).toBeTruthy();
    expect(within(item).queryByText('sp')).toBeNull();
    expect(within(item).getByText('+1')).toBeTruthy();
    expect(within(item).getByText('😍')).toBeTruthy();
    expect(within(item).getByText('3')).toBeTruthy();
    expect(within(item).getByRole('link').getAttribute('href')).toBe(`/tickets/${ticket.uuid}`);
    // the assigned user's tag is for admins
    expect(within(item).queryByText('Ana')).toBeNull();
  });

  it('offers transfer and resolve on an open ticket', () => {
    signIn({});
    renderItem(<TicketListItem ticket={makeTicket(2, { status: 'open' })} selected showUser />);
    expect(screen.getByRole('button', { name: 'Transferir' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resolver' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Aceitar' })).toBeNull();
    expect(screen.getByText('Ana')).toBeTruthy();
  });

  it('offers ignore on a pending ticket only to users allowed to close pending tickets', () => {
    signIn({ userClosePendingTicket: 'disabled' });
    const pending = makeTicket(3, { status: 'pending', userId: null, user: null });
    const { unmount } = renderItem(<TicketListItem ticket={pending} selected={false} showUser={false} />);
    expect(screen.getByRole('button', { name: 'Aceitar' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ignorar' })).toBeNull();
    unmount();
    signIn({ userClosePendingTicket: 'enabled' });
    renderItem(<TicketListItem ticket={pending} selected={false} showUser={false} />);
    expect(screen.getByRole('button', { name: 'Ignorar' })).toBeTruthy();
  });

  it('offers reopen on a closed ticket', () => {
    signIn({});
    renderItem(<TicketListItem ticket={makeTicket(4, { status: 'closed' })} selected={false} showUser={false} />);
    expect(screen.getByRole('button', { name: 'Reabrir' })).toBeTruthy();
  });
});
