import { type AppError, isAppError, type OutboundTarget, statusForError } from '@balcao/plugin-sdk/server';
import { describe, expect, it } from 'vitest';
import { targetJid } from './target';

function target(identifiers: string[], number: string | null, isGroup = false): OutboundTarget {
  return {
    companyId: 1,
    whatsappId: 3,
    channel: 'whatsapp',
    ticket: { id: 10, uuid: 'b4f1c2d0-0000-4000-8000-000000000010', isGroup },
    contact: { id: 20, number, identifiers },
  };
}

function refusal(run: () => unknown): AppError | null {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  return null;
}

describe('targetJid', () => {
  it('a group ticket goes to the group JID', () => {
    expect(targetJid(target(['120363025246125888@g.us'], null, true))).toBe('120363025246125888@g.us');
  });

  it('a person: the phone JID first, else the LID (normalised), else the number', () => {
    expect(targetJid(target(['201234567890123@lid', '5511988887777@s.whatsapp.net'], '5511988887777'))).toBe(
      '5511988887777@s.whatsapp.net',
    );
    expect(targetJid(target(['201234567890123:4@lid'], null))).toBe('201234567890123@lid');
    expect(targetJid(target([], '+55 (11) 98888-7777'))).toBe('5511988887777@s.whatsapp.net');
    // an identifier of another channel is no WhatsApp address
    expect(targetJid(target(['webchat:abc'], '5511988887777'))).toBe('5511988887777@s.whatsapp.net');
  });

  it('nothing to address: ERR_WAPP_INVALID_CONTACT, 400', () => {
    expect(statusForError('ERR_WAPP_INVALID_CONTACT')).toBe(400);
    for (const unreachable of [
      target([], null),
      target(['webchat:abc'], '123'),
      target(['5511988887777@s.whatsapp.net'], null, true),
    ]) {
      const error = refusal(() => targetJid(unreachable));
      expect(error?.code).toBe('ERR_WAPP_INVALID_CONTACT');
      expect(error?.status).toBe(400);
    }
  });
});
