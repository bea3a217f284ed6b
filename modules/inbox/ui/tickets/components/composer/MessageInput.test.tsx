import { renderPage, serveApi, signIn } from '@balcao/plugin-sdk/testing/ui';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ticketsLocales } from '../../index';
import { makeQuickMessage, makeTicket } from '../../testing/fixtures';
import { TicketActionsProvider } from '../TicketActionsProvider';
import { MessageInput } from './MessageInput';

const ticket = makeTicket(1, { userId: 1, user: { id: 1, name: 'Ana' } });

async function renderComposer() {
  const calls = serveApi((call) => {
    if (call.method === 'GET' && call.path === '/quick-messages/list') {
      return {
        status: 200,
        body: [
          makeQuickMessage(1, 'bom dia', { message: 'Bom dia! Como posso ajudar?', geral: true }),
          makeQuickMessage(2, 'boleto', { message: 'Segue o boleto.', geral: true }),
        ],
      };
    }
    return undefined;
  });
  await signIn({ namespace: 'inbox', translations: ticketsLocales });
  renderPage(
    <TicketActionsProvider>
      <MessageInput ticket={ticket} replyTo={null} onClearReply={() => {}} files={[]} onFilesChange={() => {}} />
    </TicketActionsProvider>,
    `/tickets/${ticket.uuid}`,
  );
  return calls;
}

const composer = () => screen.getByLabelText('Digite uma mensagem ou "/" para respostas rápidas') as HTMLTextAreaElement;
const typed = (text: string) => fireEvent.change(composer(), { target: { value: text } });
const listedShortcodes = () => screen.queryAllByRole('option').map((option) => option.textContent?.split(' - ')[0] ?? '');

describe("the composer's quick replies on '/' (docs/product/tickets-and-inbox.md#screens-and-routes)", () => {
  it('lists the shortcodes as they are typed, past a space while a shortcode of several words matches, and puts the chosen message in', async () => {
    const calls = await renderComposer();
    typed('/bo');
    await waitFor(() => expect(listedShortcodes()).toEqual(['bom dia', 'boleto']));
    typed('/bom d');
    expect(listedShortcodes()).toEqual(['bom dia']);
    fireEvent.keyDown(composer(), { key: 'Enter' });
    await waitFor(() => expect(composer().value).toBe('Bom dia! Como posso ajudar?'));
    expect(screen.queryByRole('listbox')).toBeNull();
    // the whole list came in one call, filtered as the shortcode grew
    expect(calls.filter((call) => call.path === '/quick-messages/list')).toHaveLength(1);
  });

  it('closes the list once the text goes past every shortcode', async () => {
    await renderComposer();
    typed('/boleto');
    await waitFor(() => expect(listedShortcodes()).toEqual(['boleto']));
    typed('/boleto vence hoje');
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
