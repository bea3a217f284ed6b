import { renderPage, serveApi, signIn } from '@balcao/plugin-sdk/testing/ui';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Contact } from '../../../../shared/types';
import { directoryLocales } from '../../../directory';
import { ticketsLocales } from '../../index';
import { ContactFormModal } from './ContactFormModal';

const translations = Object.fromEntries(
  Object.keys(ticketsLocales).map((language) => [
    language,
    {
      ...ticketsLocales[language as keyof typeof ticketsLocales],
      ...directoryLocales[language as keyof typeof directoryLocales],
    },
  ]),
) as typeof ticketsLocales;

const contact = (fields: Partial<Contact>): Contact =>
  ({
    id: 5,
    name: 'Ana',
    number: '5511999990000',
    email: 'ana@example.com',
    urlPicture: null,
    isGroup: false,
    channel: 'whatsapp',
    disableBot: false,
    active: true,
    extraInfo: [],
    ...fields,
  }) as Contact;

/** Serves PUT /contacts/5 and returns the bodies it was sent. */
function servePut(stored: Contact): Array<unknown> {
  const bodies: unknown[] = [];
  serveApi(({ method, path, body }) => {
    if (method !== 'PUT' || path !== '/contacts/5') return undefined;
    bodies.push(body);
    return { status: 200, body: { ...stored, ...(body as Partial<Contact>), number: stored.number } };
  });
  return bodies;
}

async function renameTo(stored: Contact, name: string): Promise<void> {
  renderPage(<ContactFormModal open contact={stored} onClose={() => {}} />, '/tickets');
  const dialog = await screen.findByRole('dialog');
  fireEvent.change(await within(dialog).findByLabelText('Nome'), { target: { value: name } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
}

describe('the ticket area’s contact dialog', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('sends a number masked for LGPD back as shown (the API requires it and keeps the stored one)', async () => {
    await signIn({ namespace: 'inbox', translations }, { profile: 'user' });
    const stored = contact({ number: '***********00' });
    const bodies = servePut(stored);
    await renameTo(stored, 'Ana Maria');
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ name: 'Ana Maria', number: '***********00' });
  });

  it('saves a contact without a number (webchat, Instagram) with none', async () => {
    await signIn({ namespace: 'inbox', translations });
    const stored = contact({ number: null, channel: 'webchat' } as Partial<Contact>);
    const bodies = servePut(stored);
    await renameTo(stored, 'Visitante do site');
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ name: 'Visitante do site', number: null });
  });

  it('still asks a contact with a number for 8 to 50 digits', async () => {
    await signIn({ namespace: 'inbox', translations });
    const stored = contact({});
    const bodies = servePut(stored);
    renderPage(<ContactFormModal open contact={stored} onClose={() => {}} />, '/tickets');
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByLabelText('Número'), { target: { value: '(11) 99' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Muito curto!')).toBeTruthy();
    expect(bodies).toHaveLength(0);
  });
});
