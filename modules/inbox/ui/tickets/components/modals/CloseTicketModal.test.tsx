import { renderPage, serveApi, signIn } from '@balcao/plugin-sdk/testing/ui';
import type { SessionUser } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../../shared/types';
import { ticketsLocales } from '../../index';
import { ratingApplies } from '../../logic/ticket-rules';
import { makeTicket } from '../../testing/fixtures';
import { TicketActionsProvider, useTicketActions } from '../TicketActionsProvider';

function ResolveButton({ ticket }: { ticket: Ticket }) {
  const actions = useTicketActions();
  return (
    <button type="button" onClick={() => actions.resolve(ticket)}>
      resolver
    </button>
  );
}

/** The resolve dialog over a stand-in API whose PUT answers the ticket closed (or in nps when asked). */
async function openResolve(ticket: Ticket, userRating: 'enabled' | 'disabled') {
  const calls = serveApi((call) => {
    if (call.method === 'PUT' && call.path === `/tickets/${ticket.id}`) {
      const body = call.body as { ratingId?: string };
      return { status: 200, body: { ...ticket, status: body.ratingId === 'nps' ? 'nps' : 'closed' } };
    }
    return undefined;
  });
  const company = { id: 1, name: 'Acme', dueDate: '2999-12-31', companieSettings: [{ key: 'userRating', value: userRating }] };
  await signIn({ namespace: 'inbox', translations: ticketsLocales }, { company } as Partial<SessionUser>);
  renderPage(
    <TicketActionsProvider>
      <ResolveButton ticket={ticket} />
    </TicketActionsProvider>,
    '/tickets',
  );
  fireEvent.click(screen.getByRole('button', { name: 'resolver' }));
  return calls;
}

const puts = (calls: ReturnType<typeof serveApi>) => calls.filter((call) => call.method === 'PUT').map((call) => call.body);

describe('the rating modal (docs/product/tickets-and-inbox.md#validation Rating)', () => {
  const ticket = makeTicket(1, { userId: 1, user: { id: 1, name: 'Ana' } });

  it('applies to open, attended, unrated, non-group tickets of a company with ratings on', () => {
    expect(ratingApplies(ticket, true)).toBe(true);
    expect(ratingApplies(ticket, false)).toBe(false);
    expect(ratingApplies({ ...ticket, isGroup: true, status: 'group' }, true)).toBe(false);
    expect(ratingApplies({ ...ticket, status: 'pending', userId: null }, true)).toBe(false);
    expect(ratingApplies({ ...ticket, userId: null }, true)).toBe(false);
    expect(ratingApplies({ ...ticket, userRating: { rate: 9 } }, true)).toBe(false);
  });

  it("requires a choice ('Avaliação obrigatória') and then asks the contact", async () => {
    const calls = await openResolve(ticket, 'enabled');
    expect(await screen.findByText('Avaliação do atendimento')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pedir avaliação e resolver' }));
    expect(await screen.findByText('Avaliação obrigatória')).toBeTruthy();
    expect(puts(calls)).toEqual([]);

    fireEvent.click(screen.getByLabelText(/Pedir uma nota de 0 a 10/));
    fireEvent.click(screen.getByRole('button', { name: 'Pedir avaliação e resolver' }));
    await waitFor(() => expect(puts(calls)).toEqual([{ status: 'closed', sendFarewellMessage: false, ratingId: 'nps' }]));
  });

  it('closes without asking, with the farewell when chosen', async () => {
    const calls = await openResolve(ticket, 'enabled');
    fireEvent.click(await screen.findByLabelText('Encerrar sem pedir avaliação'));
    fireEvent.click(await screen.findByRole('button', { name: 'Resolver com despedida' }));
    await waitFor(() => expect(puts(calls)).toEqual([{ status: 'closed', sendFarewellMessage: true, ratingId: 'none' }]));
  });

  it('is the plain farewell dialog when ratings are off', async () => {
    const calls = await openResolve(ticket, 'disabled');
    expect(await screen.findByText('Resolver atendimento')).toBeTruthy();
    expect(screen.queryByText('Avaliação')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Resolver sem despedida' }));
    await waitFor(() => expect(puts(calls)).toEqual([{ status: 'closed', sendFarewellMessage: false }]));
  });
});
