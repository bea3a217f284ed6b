import { describe, expect, it } from 'vitest';
import { contactMessageBody, isSendableText, mediaMessageForm, parseLocation, parseVCard, textMessageBody } from './outgoing';

const options = { quotedMsgId: null, isPrivate: false, signMessage: true };

describe('what the composer sends (docs/inbox-api.md)', () => {
  it('never sends empty or whitespace-only text (docs/product/tickets-and-inbox.md#validation)', () => {
    expect(isSendableText('')).toBe(false);
    expect(isSendableText(' \n\t ')).toBe(false);
    expect(isSendableText(' oi ')).toBe(true);
  });

  it('sends text as JSON with the quoted message id, privacy and signature', () => {
    expect(textMessageBody('  Olá  ', options)).toEqual({ body: 'Olá', isPrivate: false, signMessage: true });
    expect(textMessageBody('Olá', { quotedMsgId: 12, isPrivate: true, signMessage: false })).toEqual({
      body: 'Olá',
      quotedMsg: 12,
      isPrivate: true,
      signMessage: false,
    });
  });

  it('sends a contact card as vCard', () => {
    expect(contactMessageBody({ name: 'Bia', number: '5511988887777' }, options)).toEqual({
      body: 'Bia',
      vCard: { name: 'Bia', number: '5511988887777' },
      isPrivate: false,
      signMessage: true,
    });
  });

  it('sends files as multipart medias with the caption as body', () => {
    const file = new File(['x'], 'foto.jpg', { type: 'image/jpeg' });
    const form = mediaMessageForm([file, file], ' legenda ', { quotedMsgId: 3, isPrivate: true, signMessage: false });
    expect(form.get('body')).toBe('legenda');
    expect(form.get('isPrivate')).toBe('true');
    expect(form.get('signMessage')).toBe('false');
    expect(form.get('quotedMsg')).toBe('3');
    expect(form.getAll('medias')).toHaveLength(2);
  });
});

describe('reading special messages', () => {
  it('reads name and number from a vCard', () => {
    const card = 'BEGIN:VCARD\nVERSION:3.0\nN:;Bia;;;\nFN:Bia Souza\nitem1.TEL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD';
    expect(parseVCard(card)).toEqual({ name: 'Bia Souza', number: '5511988887777' });
    expect(parseVCard('BEGIN:VCARD\nFN:Caio\nTEL;type=CELL:+55 (11) 3333-4444\nEND:VCARD')).toEqual({
      name: 'Caio',
      number: '+551133334444',
    });
    expect(parseVCard('apenas texto')).toBeNull();
  });

  it('reads a position from a location body', () => {
    expect(parseLocation('https://maps.google.com/maps?q=-23.5505,-46.6333&z=17')).toEqual({ lat: -23.5505, lng: -46.6333 });
    expect(parseLocation('-23.5,200.1')).toBeNull();
    expect(parseLocation('sem posição')).toBeNull();
  });
});
