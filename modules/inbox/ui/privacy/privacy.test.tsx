import { renderPage, serveApi, signIn } from '@balcao/plugin-sdk/testing/ui';
import type { SlotContact } from '@balcao/plugin-sdk/ui';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ContactPrivacyActions from './ContactPrivacyActions';
import en from './locales/en.json';
import es from './locales/es.json';
import pt from './locales/pt.json';
import tr from './locales/tr.json';
import RetentionTab from './RetentionTab';

const texts = { namespace: 'inbox', translations: { pt, en, es, tr } };

const contact: SlotContact = {
  id: 10,
  name: 'Maria Souza',
  number: '5511999990000',
  email: null,
  urlPicture: null,
  isGroup: false,
  channel: 'whatsapp',
  tags: [],
};

describe("the contact drawer's privacy actions", () => {
  it('erases only once the contact’s name is typed again, and says what was removed', async () => {
    await signIn(texts, { profile: 'admin' });
    const calls = serveApi((call) =>
      call.method === 'POST' && call.path === '/contacts/10/erase'
        ? { status: 200, body: { contactId: 10, tickets: 2, messages: 31, files: 4 } }
        : undefined,
    );
    renderPage(<ContactPrivacyActions contact={contact} />);
    fireEvent.click(await screen.findByRole('button', { name: /Apagar dados/ }));
    const confirm = () => screen.getAllByRole('button', { name: /Apagar dados/ }).at(-1) as HTMLButtonElement;
    const input = await screen.findByLabelText('Nome do contato');
    fireEvent.change(input, { target: { value: 'Maria' } });
    expect(confirm().disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'Maria Souza' } });
    await waitFor(() => expect(confirm().disabled).toBe(false));
    fireEvent.click(confirm());
    await waitFor(() => expect(calls.some((call) => call.path === '/contacts/10/erase')).toBe(true));
    expect(calls.find((call) => call.path === '/contacts/10/erase')?.body).toEqual({ confirmation: 'Maria Souza' });
    expect(await screen.findByText('Dados apagados: 31 mensagens e 4 arquivos.', undefined, { timeout: 5000 })).toBeTruthy();
  });

  it('is not offered to a profile user', async () => {
    await signIn(texts, { profile: 'user' });
    serveApi(() => undefined);
    renderPage(<ContactPrivacyActions contact={contact} />);
    expect(screen.queryByText('Exportar dados')).toBeNull();
  });
});

describe('the Settings tab of retention', () => {
  it('shows the retention and the log, and saves a period in months', async () => {
    await signIn(texts, { profile: 'admin' });
    const calls = serveApi((call) => {
      if (call.path === '/privacy/retention' && call.method === 'GET') return { status: 200, body: { months: null } };
      if (call.path === '/privacy/retention' && call.method === 'PUT') return { status: 200, body: call.body };
      if (call.path === '/privacy/log') {
        return {
          status: 200,
          body: {
            entries: [
              {
                id: 1,
                action: 'erase',
                contactId: 10,
                user: { id: 1, name: 'Ana' },
                details: { messages: 3, files: 1 },
                createdAt: '2026-01-02T10:00:00.000Z',
              },
            ],
          },
        };
      }
      return undefined;
    });
    renderPage(<RetentionTab />);
    expect(await screen.findByText('Dados do contato #10 apagados: 3 mensagens, 1 arquivos')).toBeTruthy();
    expect(screen.getByText('Manter para sempre')).toBeTruthy();
    fireEvent.mouseDown(screen.getByLabelText('Retenção de mensagens'));
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll('.ant-select-item-option')].find(
        (item) => item.textContent === 'Apagar após um prazo',
      );
      if (!found) throw new Error('option not shown');
      return found;
    });
    fireEvent.click(option);
    fireEvent.click(await screen.findByText('6 meses'));
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ months: 6 });
  });

  it('says when the setting or the log failed to load, and saves nothing until the setting is read', async () => {
    await signIn(texts, { profile: 'admin' });
    let retentionReads = 0;
    const calls = serveApi((call) => {
      if (call.path === '/privacy/retention' && call.method === 'GET') {
        retentionReads += 1;
        return retentionReads === 1 ? { status: 500, body: { error: 'ERR_INTERNAL' } } : { status: 200, body: { months: 6 } };
      }
      if (call.path === '/privacy/log') return { status: 500, body: { error: 'ERR_INTERNAL' } };
      return undefined;
    });
    renderPage(<RetentionTab />);
    expect(await screen.findByText('Não foi possível carregar a retenção.')).toBeTruthy();
    expect(await screen.findByText('Não foi possível carregar o registro de privacidade.')).toBeTruthy();
    expect(screen.queryByText('Nenhuma exportação ou exclusão ainda')).toBeNull();
    const save = () => screen.getByRole('button', { name: 'Salvar' }) as HTMLButtonElement;
    expect(save().disabled).toBe(true);
    fireEvent.click(screen.getAllByRole('button', { name: /Tentar novamente/ })[0] as HTMLElement);
    await waitFor(() => expect(save().disabled).toBe(false));
    expect(screen.getByText('Apagar após um prazo')).toBeTruthy();
    expect(screen.queryByText('Não foi possível carregar a retenção.')).toBeNull();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });
});
