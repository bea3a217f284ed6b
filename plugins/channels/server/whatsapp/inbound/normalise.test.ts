import { extractMessageContent, proto, type WACallEvent, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { lookupsFor, lookupsForCall, normaliseCall, normaliseMessage } from './normalise';
import { messageFromStoredData, type StoredWhatsAppMessage } from './stored-data';
import type { InboundEvent, InboundMessageEvent, NormaliseContext } from './types';

/*
 * Fixtures are real Baileys messages: `proto.WebMessageInfo.fromObject` as Baileys decodes them, with the key
 * fields Baileys 7 adds beyond the protobuf key (remoteJidAlt, participantAlt, isViewOnce) put back on the key
 * the way `decodeMessageNode` has them.
 */

const ANA_PN = '5511988887777@s.whatsapp.net';
const ANA_LID = '201234567890123@lid';
const BRUNO_PN = '5521977776666@s.whatsapp.net';
const BRUNO_LID = '207654321098765@lid';
/** Known to the mapping store by her LID only. */
const CARLA_PN = '5531966665555@s.whatsapp.net';
const CARLA_LID = '203333333333333@lid';
/** Known to the mapping store by his phone JID only. */
const DANI_PN = '5541955554444@s.whatsapp.net';
const DANI_LID = '204444444444444@lid';
/** Nobody knows whose this is. */
const ANON_LID = '205555555555555@lid';
const OWN_PN = '5511900001111@s.whatsapp.net';
const OWN_LID = '209999999999999@lid';
const GROUP = '120363025246125888@g.us';
const T = 1_763_000_000;

const LID_TO_PN = new Map([
  [CARLA_LID, CARLA_PN],
  [OWN_LID, OWN_PN],
]);
const PN_TO_LID = new Map([[DANI_PN, DANI_LID]]);

function context(overrides: Partial<NormaliseContext> = {}): NormaliseContext {
  return {
    meId: '5511900001111:7@s.whatsapp.net',
    meLid: '209999999999999:7@lid',
    allowGroup: true,
    lidToPn: (lid) => LID_TO_PN.get(lid),
    pnToLid: (pn) => PN_TO_LID.get(pn),
    groupName: (jid) => (jid === GROUP ? 'Equipe de vendas' : undefined),
    ...overrides,
  };
}

interface Fixture {
  key: WAMessageKey;
  message?: proto.IMessage | null;
  pushName?: string;
  messageTimestamp?: number;
  messageStubType?: proto.WebMessageInfo.StubType;
  messageStubParameters?: string[];
  status?: proto.WebMessageInfo.Status;
  participant?: string;
}

function waMessage({ key, ...fields }: Fixture): WAMessage {
  const { remoteJidAlt, participantAlt, isViewOnce, addressingMode, ...protoKey } = key;
  const built = proto.WebMessageInfo.fromObject({ messageTimestamp: T, ...fields, key: protoKey });
  const extra: Partial<WAMessageKey> = {};
  if (remoteJidAlt) extra.remoteJidAlt = remoteJidAlt;
  if (participantAlt) extra.participantAlt = participantAlt;
  if (isViewOnce) extra.isViewOnce = isViewOnce;
  if (addressingMode) extra.addressingMode = addressingMode;
  const fullKey: WAMessageKey = Object.assign(built.key ?? {}, extra);
  return Object.assign(built, { key: fullKey });
}

/** A message Ana (known by her phone JID only) wrote in her 1:1 chat. */
function fromAna(message: proto.IMessage, id = 'ANA-1'): WAMessage {
  return waMessage({ key: { remoteJid: ANA_PN, fromMe: false, id }, pushName: 'Ana Souza', message });
}

function normalised(message: WAMessage, overrides: Partial<NormaliseContext> = {}): InboundEvent {
  return normaliseMessage(message, context(overrides));
}

function asMessage(event: InboundEvent): InboundMessageEvent {
  if (event.kind !== 'message') throw new Error(`expected a message, got ${JSON.stringify(event)}`);
  return event;
}

/** Body and media type of what Ana's message becomes. */
function translated(message: proto.IMessage): Pick<InboundMessageEvent['message'], 'body' | 'mediaType'> & {
  media?: InboundMessageEvent['media'];
} {
  const event = asMessage(normalised(fromAna(message)));
  return { body: event.message.body, mediaType: event.message.mediaType, ...(event.media ? { media: event.media } : {}) };
}

describe('who a message is from (LID and phone identities)', () => {
  it('a phone JID alone: that identifier, its digits as number, the push name', () => {
    const event = asMessage(normalised(fromAna({ conversation: 'Oi' })));
    expect(event.contact).toEqual({ identifiers: [ANA_PN], number: '5511988887777', name: 'Ana Souza' });
    expect(event.group).toBeUndefined();
    expect(event.message).toMatchObject({ id: 'ANA-1', fromMe: false, body: 'Oi', mediaType: 'chat', quotedId: null });
    expect(event.message.timestamp).toEqual(new Date(T * 1000));
  });

  it('a LID alone: the LID as identifier and no number (never the LID digits)', () => {
    const event = asMessage(
      normalised(waMessage({ key: { remoteJid: ANON_LID, fromMe: false, id: 'L1' }, message: { conversation: 'Oi' } })),
    );
    expect(event.contact).toEqual({ identifiers: [ANON_LID] });
  });

  it('a LID with its phone JID in remoteJidAlt: both, and the number from the phone JID', () => {
    const message = waMessage({
      key: { remoteJid: ANA_LID, remoteJidAlt: ANA_PN, addressingMode: 'lid', fromMe: false, id: 'L2' },
      pushName: 'Ana',
      message: { conversation: 'Oi' },
    });
    expect(asMessage(normalised(message)).contact).toEqual({
      identifiers: [ANA_PN, ANA_LID],
      number: '5511988887777',
      name: 'Ana',
    });
  });

  it('a phone JID with its LID in remoteJidAlt: both', () => {
    const message = waMessage({
      key: { remoteJid: ANA_PN, remoteJidAlt: ANA_LID, fromMe: false, id: 'P2' },
      message: { conversation: 'Oi' },
    });
    expect(asMessage(normalised(message)).contact.identifiers).toEqual([ANA_PN, ANA_LID]);
  });

  it('a LID alone that the mapping store knows: the phone JID comes from lidToPn', () => {
    const message = waMessage({ key: { remoteJid: CARLA_LID, fromMe: false, id: 'C1' }, message: { conversation: 'Oi' } });
    expect(asMessage(normalised(message)).contact).toEqual({ identifiers: [CARLA_PN, CARLA_LID], number: '5531966665555' });
  });

  it('a phone JID alone that the mapping store knows: the LID comes from pnToLid (optional)', () => {
    const message = waMessage({ key: { remoteJid: DANI_PN, fromMe: false, id: 'D1' }, message: { conversation: 'Oi' } });
    expect(asMessage(normalised(message)).contact.identifiers).toEqual([DANI_PN, DANI_LID]);
    const { pnToLid: _, ...withoutPnToLid } = context();
    expect(asMessage(normaliseMessage(message, withoutPnToLid)).contact.identifiers).toEqual([DANI_PN]);
  });

  it('device and agent suffixes are dropped (jidNormalizedUser), hosted servers mapped to their plain form', () => {
    const message = waMessage({
      key: {
        remoteJid: '5511988887777:12@s.whatsapp.net',
        remoteJidAlt: '201234567890123:12@hosted.lid',
        fromMe: false,
        id: 'N1',
      },
      message: { conversation: 'Oi' },
    });
    expect(asMessage(normalised(message)).contact.identifiers).toEqual([ANA_PN, ANA_LID]);
  });

  it("fromMe in a 1:1 chat: the contact is the other party, without the company's push name, with the ack", () => {
    const message = waMessage({
      // Baileys may put the company's own alt on a message its phone sent: it is not the contact's
      key: { remoteJid: CARLA_LID, remoteJidAlt: OWN_PN, fromMe: true, id: 'M1' },
      pushName: 'Loja do Bairro',
      status: proto.WebMessageInfo.Status.SERVER_ACK,
      message: { conversation: 'Seu pedido saiu' },
    });
    const event = asMessage(normalised(message));
    expect(event.contact).toEqual({ identifiers: [CARLA_PN, CARLA_LID], number: '5531966665555' });
    expect(event.message).toMatchObject({ fromMe: true, body: 'Seu pedido saiu', ack: 1 });
  });

  it('a group: the group (with its subject) and the participant who wrote, by LID and phone JID', () => {
    const message = waMessage({
      key: { remoteJid: GROUP, participant: BRUNO_LID, participantAlt: BRUNO_PN, addressingMode: 'lid', fromMe: false, id: 'G1' },
      pushName: 'Bruno',
      message: { conversation: 'Bom dia' },
    });
    const event = asMessage(normalised(message));
    expect(event.group).toEqual({ identifiers: [GROUP], name: 'Equipe de vendas' });
    expect(event.contact).toEqual({ identifiers: [BRUNO_PN, BRUNO_LID], number: '5521977776666', name: 'Bruno' });
    expect(event.message.body).toBe('Bom dia');
  });

  it("a group whose subject isn't known: the group without a name", () => {
    const message = waMessage({
      key: { remoteJid: GROUP, participant: ANA_PN, fromMe: false, id: 'G2' },
      message: { conversation: 'Oi' },
    });
    expect(asMessage(normalised(message, { groupName: () => undefined })).group).toEqual({ identifiers: [GROUP] });
  });

  it('a group when the connection does not take groups (allowGroup off): ignored', () => {
    const message = waMessage({
      key: { remoteJid: GROUP, participant: ANA_PN, fromMe: false, id: 'G3' },
      message: { conversation: 'Oi' },
    });
    expect(normalised(message, { allowGroup: false })).toEqual({ kind: 'ignore', reason: expect.stringContaining('group') });
  });

  it("a group message the company's phone wrote: the contact is the company's account, unnamed, fromMe", () => {
    const message = waMessage({
      key: { remoteJid: GROUP, participant: OWN_LID, participantAlt: OWN_PN, fromMe: true, id: 'G4' },
      pushName: 'Loja do Bairro',
      message: { conversation: 'Pedido confirmado' },
    });
    const event = asMessage(normalised(message));
    expect(event.contact).toEqual({ identifiers: [OWN_PN, OWN_LID], number: '5511900001111' });
    expect(event.group?.identifiers).toEqual([GROUP]);
    expect(event.message.fromMe).toBe(true);
  });

  it("the company's chat with itself is ignored, also when only the mapping says it is the company's", () => {
    const note = waMessage({ key: { remoteJid: OWN_PN, fromMe: true, id: 'S1' }, message: { conversation: 'lembrete' } });
    expect(normalised(note)).toEqual({ kind: 'ignore', reason: "the company's chat with itself" });
    const byLid = waMessage({ key: { remoteJid: OWN_LID, fromMe: true, id: 'S2' }, message: { conversation: 'lembrete' } });
    expect(normalised(byLid, { meLid: null })).toEqual({ kind: 'ignore', reason: "the company's chat with itself" });
  });

  it('status updates, channels (newsletters) and Meta AI are ignored', () => {
    const status = waMessage({
      key: { remoteJid: 'status@broadcast', participant: ANA_PN, fromMe: false, id: 'ST' },
      message: { conversation: 'minha foto' },
    });
    const channel = waMessage({
      key: { remoteJid: '120363111111111111@newsletter', fromMe: false, id: 'NL' },
      message: { conversation: 'novidades' },
    });
    const metaAi = waMessage({
      key: { remoteJid: '13135550002@bot', fromMe: false, id: 'AI' },
      message: { conversation: 'olá' },
    });
    expect(normalised(status)).toMatchObject({ kind: 'ignore', reason: expect.stringContaining('status') });
    expect(normalised(channel)).toMatchObject({ kind: 'ignore', reason: expect.stringContaining('newsletter') });
    expect(normalised(metaAi)).toMatchObject({ kind: 'ignore', reason: expect.stringContaining('Meta AI') });
  });

  it("a broadcast list message is the sender's 1:1; one the company sent to a list is ignored", () => {
    const received = waMessage({
      key: { remoteJid: '1763000000@broadcast', participant: ANA_PN, remoteJidAlt: ANA_LID, fromMe: false, id: 'B1' },
      pushName: 'Ana',
      message: { conversation: 'Promoção!' },
    });
    expect(asMessage(normalised(received)).contact).toEqual({
      identifiers: [ANA_PN, ANA_LID],
      number: '5511988887777',
      name: 'Ana',
    });
    const sent = waMessage({
      key: { remoteJid: '1763000000@broadcast', fromMe: true, id: 'B2' },
      message: { conversation: 'Promoção!' },
    });
    expect(normalised(sent).kind).toBe('ignore');
  });

  it('lookupsFor names what the session resolves first: the missing half of each identity, the group', () => {
    expect(lookupsFor(waMessage({ key: { remoteJid: CARLA_LID, fromMe: false, id: 'X' } }))).toEqual({
      lids: [CARLA_LID],
      phoneJids: [],
      groupJid: null,
    });
    expect(lookupsFor(waMessage({ key: { remoteJid: DANI_PN, fromMe: false, id: 'X' } }))).toEqual({
      lids: [],
      phoneJids: [DANI_PN],
      groupJid: null,
    });
    const group = waMessage({
      key: { remoteJid: GROUP, participant: `${BRUNO_LID.split('@')[0]}:3@lid`, fromMe: false, id: 'X' },
    });
    expect(lookupsFor(group)).toEqual({ lids: [BRUNO_LID], phoneJids: [], groupJid: GROUP });
    const both = waMessage({ key: { remoteJid: ANA_LID, remoteJidAlt: ANA_PN, fromMe: false, id: 'X' } });
    expect(lookupsFor(both)).toEqual({ lids: [], phoneJids: [], groupJid: null });
    // the company's own alt on a message its phone sent is no half of the contact's identity
    const sent = waMessage({ key: { remoteJid: CARLA_LID, remoteJidAlt: OWN_PN, fromMe: true, id: 'X' } });
    expect(lookupsFor(sent, { meId: OWN_PN })).toEqual({ lids: [CARLA_LID], phoneJids: [], groupJid: null });
  });
});

describe('what a message says', () => {
  it('text, and a reply: contextInfo.stanzaId is the quoted id', () => {
    const reply = fromAna({
      extendedTextMessage: {
        text: 'Sim, esse mesmo',
        contextInfo: { stanzaId: 'QUOTED-1', participant: OWN_PN, quotedMessage: { conversation: 'É este modelo?' } },
      },
    });
    expect(asMessage(normalised(reply)).message).toMatchObject({
      body: 'Sim, esse mesmo',
      mediaType: 'chat',
      quotedId: 'QUOTED-1',
    });
  });

  it('the timestamp, whether Baileys gives a Long or a number', () => {
    const withLong = fromAna({ conversation: 'Oi' });
    expect(withLong.messageTimestamp).not.toBeTypeOf('number');
    expect(asMessage(normalised(withLong)).message.timestamp).toEqual(new Date(T * 1000));
    const withNumber = Object.assign(fromAna({ conversation: 'Oi' }), { messageTimestamp: T + 60 });
    expect(asMessage(normalised(withNumber)).message.timestamp).toEqual(new Date((T + 60) * 1000));
  });

  it('an image with its caption: the image to download', () => {
    expect(
      translated({
        imageMessage: { caption: 'Olha a foto', mimetype: 'image/jpeg', fileLength: 52_000, url: 'https://mmg.whatsapp.net/i' },
      }),
    ).toEqual({
      body: 'Olha a foto',
      mediaType: 'image',
      media: { kind: 'image', mimetype: 'image/jpeg', fileLength: 52_000 },
    });
  });

  it('a video, a GIF (looping video) and a video note are videos', () => {
    const expected = { body: '', mediaType: 'video', media: { kind: 'video', mimetype: 'video/mp4' } };
    expect(translated({ videoMessage: { mimetype: 'video/mp4' } })).toEqual(expected);
    expect(translated({ videoMessage: { mimetype: 'video/mp4', gifPlayback: true, caption: 'kkk' } })).toEqual({
      ...expected,
      body: 'kkk',
    });
    expect(translated({ ptvMessage: { mimetype: 'video/mp4' } })).toEqual(expected);
  });

  it('an audio: a voice note (ptt) or a plain audio file', () => {
    expect(translated({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 7 } })).toEqual({
      body: '',
      mediaType: 'audio',
      media: { kind: 'audio', mimetype: 'audio/ogg; codecs=opus', ptt: true },
    });
    expect(translated({ audioMessage: { mimetype: 'audio/mpeg' } }).media).toEqual({
      kind: 'audio',
      mimetype: 'audio/mpeg',
      ptt: false,
    });
  });

  it("a document: application, its file name (the body when there's no caption)", () => {
    expect(translated({ documentMessage: { mimetype: 'application/pdf', fileName: 'boleto.pdf' } })).toEqual({
      body: 'boleto.pdf',
      mediaType: 'application',
      media: { kind: 'document', mimetype: 'application/pdf', fileName: 'boleto.pdf' },
    });
  });

  it('a document with a caption (documentWithCaptionMessage wrapper)', () => {
    const message = {
      documentWithCaptionMessage: {
        message: { documentMessage: { mimetype: 'application/pdf', fileName: 'nf.pdf', caption: 'Segue a nota' } },
      },
    };
    expect(translated(message)).toEqual({
      body: 'Segue a nota',
      mediaType: 'application',
      media: { kind: 'document', mimetype: 'application/pdf', fileName: 'nf.pdf' },
    });
  });

  it('a sticker is shown as an image', () => {
    expect(translated({ stickerMessage: { mimetype: 'image/webp', isAnimated: false } })).toEqual({
      body: '',
      mediaType: 'image',
      media: { kind: 'sticker', mimetype: 'image/webp' },
    });
  });

  it('ephemeral, view-once and view-once v2 wrappers are opened (normalizeMessageContent)', () => {
    expect(translated({ ephemeralMessage: { message: { extendedTextMessage: { text: 'some em 24h' } } } })).toEqual({
      body: 'some em 24h',
      mediaType: 'chat',
    });
    expect(
      translated({ viewOnceMessage: { message: { imageMessage: { mimetype: 'image/jpeg', viewOnce: true } } } }).media,
    ).toEqual({
      kind: 'image',
      mimetype: 'image/jpeg',
    });
    const v2 = {
      viewOnceMessageV2: { message: { videoMessage: { mimetype: 'video/mp4', caption: 'uma vez', viewOnce: true } } },
    };
    expect(translated(v2)).toMatchObject({ body: 'uma vez', mediaType: 'video' });
    const inEphemeral = {
      ephemeralMessage: { message: { viewOnceMessageV2: { message: { imageMessage: { caption: 'dupla' } } } } },
    };
    expect(translated(inEphemeral)).toMatchObject({ body: 'dupla', mediaType: 'image' });
  });

  it('a view-once message kept from linked devices still reaches the agent, saying where to see it', () => {
    const message = waMessage({ key: { remoteJid: ANA_PN, fromMe: false, id: 'VO', isViewOnce: true }, pushName: 'Ana' });
    expect(asMessage(normalised(message)).message).toMatchObject({
      body: 'Mensagem de visualização única: abra no celular para vê-la',
      mediaType: 'chat',
    });
  });

  it('a location: `lat,lng` then name and address; whole degrees keep a decimal point', () => {
    const place = { degreesLatitude: -23.5613496, degreesLongitude: -46.6565712, name: 'MASP', address: 'Av. Paulista, 1578' };
    expect(translated({ locationMessage: place })).toEqual({
      body: '-23.5613496,-46.6565712\nMASP\nAv. Paulista, 1578',
      mediaType: 'locationMessage',
    });
    expect(translated({ locationMessage: { degreesLatitude: -23, degreesLongitude: 0 } }).body).toBe('-23.0,0.0');
  });

  it('a live location: `lat,lng` and its caption', () => {
    expect(
      translated({ liveLocationMessage: { degreesLatitude: -22.9068, degreesLongitude: -43.1729, caption: 'Estou chegando' } }),
    ).toEqual({
      body: '-22.9068,-43.1729\nEstou chegando',
      mediaType: 'locationMessage',
    });
  });

  it('a contact card: the vCard text; several cards: all of them', () => {
    const bia = 'BEGIN:VCARD\nVERSION:3.0\nFN:Bia Souza\nTEL;type=CELL;waid=5511988880000:+55 11 98888-0000\nEND:VCARD';
    const caio = 'BEGIN:VCARD\nVERSION:3.0\nFN:Caio\nTEL;type=CELL;waid=5511977770000:+55 11 97777-0000\nEND:VCARD';
    expect(translated({ contactMessage: { displayName: 'Bia Souza', vcard: bia } })).toEqual({
      body: bia,
      mediaType: 'contactMessage',
    });
    const array = {
      contactsArrayMessage: {
        displayName: '2 contatos',
        contacts: [
          { displayName: 'Bia', vcard: bia },
          { displayName: 'Caio', vcard: caio },
        ],
      },
    };
    expect(translated(array)).toEqual({ body: `${bia}\n${caio}`, mediaType: 'contactMessage' });
  });

  it('an ad preview (click-to-WhatsApp): ad title, body and link, then the text; its inline picture as thumbnail', () => {
    const thumbnail = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const fromAd = {
      extendedTextMessage: {
        text: 'Olá! Quero saber mais',
        contextInfo: {
          conversionSource: 'FB_Ads',
          externalAdReply: {
            title: 'Tênis em promoção',
            body: 'Só esta semana',
            sourceUrl: 'https://fb.me/ad123',
            thumbnail,
            mediaType: 1,
          },
        },
      },
    };
    const result = translated(fromAd);
    expect(result.body).toBe('Tênis em promoção\nSó esta semana\nhttps://fb.me/ad123\n\nOlá! Quero saber mais');
    expect(result.mediaType).toBe('adMetaPreview');
    expect(result.media).toMatchObject({
      kind: 'thumbnail',
      mimetype: 'image/jpeg',
      fileName: 'anuncio.jpg',
      url: null,
      fileLength: 7,
    });
    expect(result.media?.kind === 'thumbnail' && Buffer.from(result.media.bytes ?? []).equals(thumbnail)).toBe(true);
  });

  it('an ad preview with a picture address only, and one known by its conversion source only', () => {
    const byUrl = {
      extendedTextMessage: {
        text: 'Oi',
        contextInfo: { externalAdReply: { title: 'Curso', thumbnailUrl: 'https://scontent.xx.fbcdn.net/t.jpg' } },
      },
    };
    expect(translated(byUrl).media).toEqual({
      kind: 'thumbnail',
      mimetype: 'image/jpeg',
      fileName: 'anuncio.jpg',
      bytes: null,
      url: 'https://scontent.xx.fbcdn.net/t.jpg',
    });
    expect(translated({ extendedTextMessage: { text: 'Oi', contextInfo: { conversionSource: 'FB_Ads' } } })).toEqual({
      body: 'Oi',
      mediaType: 'adMetaPreview',
    });
  });

  it('a template (hydrated): title, text, footer and its buttons', () => {
    const template = {
      templateMessage: {
        hydratedTemplate: {
          hydratedTitleText: 'Pedido #123',
          hydratedContentText: 'Seu pedido foi enviado.',
          hydratedFooterText: 'Loja X',
          hydratedButtons: [
            { quickReplyButton: { displayText: 'Obrigado', id: 'thanks' } },
            { urlButton: { displayText: 'Rastrear', url: 'https://loja.example/r/123' } },
            { callButton: { displayText: 'Ligar', phoneNumber: '+551133334444' } },
          ],
        },
      },
    };
    expect(translated(template)).toEqual({
      body: 'Pedido #123\nSeu pedido foi enviado.\nLoja X\n[ Obrigado ]\n[ Rastrear ] https://loja.example/r/123\n[ Ligar ] +551133334444',
      mediaType: 'template',
    });
  });

  it('a buttons message, a list and an interactive message are templates with readable text', () => {
    const buttons = {
      buttonsMessage: {
        contentText: 'Escolha uma opção',
        footerText: 'Atendimento',
        buttons: [
          { buttonId: '1', buttonText: { displayText: 'Vendas' } },
          { buttonId: '2', buttonText: { displayText: 'Suporte' } },
        ],
      },
    };
    expect(translated(buttons)).toEqual({
      body: 'Escolha uma opção\nAtendimento\n[ Vendas ]\n[ Suporte ]',
      mediaType: 'template',
    });

    const list = {
      listMessage: {
        title: 'Cardápio',
        description: 'Escolha seu prato',
        buttonText: 'Ver opções',
        sections: [
          {
            title: 'Massas',
            rows: [
              { title: 'Lasanha', description: 'R$ 40', rowId: 'l' },
              { title: 'Nhoque', rowId: 'n' },
            ],
          },
        ],
      },
    };
    expect(translated(list)).toEqual({
      body: 'Cardápio\nEscolha seu prato\nMassas\n• Lasanha — R$ 40\n• Nhoque\n[ Ver opções ]',
      mediaType: 'template',
    });

    const interactive = {
      interactiveMessage: {
        header: { title: 'Confirmação' },
        body: { text: 'Confirma a consulta de amanhã?' },
        footer: { text: 'Clínica Y' },
        nativeFlowMessage: {
          buttons: [
            { name: 'quick_reply', buttonParamsJson: '{"display_text":"Confirmo","id":"yes"}' },
            { name: 'cta_url', buttonParamsJson: '{"display_text":"Ver endereço","url":"https://maps.example/y"}' },
          ],
        },
      },
    };
    expect(translated(interactive)).toEqual({
      body: 'Confirmação\nConfirma a consulta de amanhã?\nClínica Y\n[ Confirmo ]\n[ Ver endereço ] https://maps.example/y',
      mediaType: 'template',
    });
  });

  it('a highly structured message: its hydrated template, else its parameters', () => {
    const hydrated = {
      highlyStructuredMessage: { elementName: 'shipping', hydratedHsm: { hydratedTemplate: { hydratedContentText: 'Chegou!' } } },
    };
    expect(translated(hydrated)).toEqual({ body: 'Chegou!', mediaType: 'template' });
    expect(translated({ highlyStructuredMessage: { elementName: 'otp', params: ['Seu código é 1234'] } }).body).toBe(
      'Seu código é 1234',
    );
  });

  it("the answers to buttons, lists, templates and interactive messages are chat with the chosen option's text", () => {
    expect(translated({ buttonsResponseMessage: { selectedButtonId: '2', selectedDisplayText: 'Suporte' } })).toEqual({
      body: 'Suporte',
      mediaType: 'chat',
    });
    expect(translated({ listResponseMessage: { title: 'Lasanha', singleSelectReply: { selectedRowId: 'l' } } })).toEqual({
      body: 'Lasanha',
      mediaType: 'chat',
    });
    expect(
      translated({ templateButtonReplyMessage: { selectedId: 'thanks', selectedDisplayText: 'Obrigado', selectedIndex: 0 } }),
    ).toEqual({
      body: 'Obrigado',
      mediaType: 'chat',
    });
    expect(
      translated({
        interactiveResponseMessage: { body: { text: 'Confirmo' }, nativeFlowResponseMessage: { name: 'quick_reply' } },
      }),
    ).toEqual({
      body: 'Confirmo',
      mediaType: 'chat',
    });
    const paramsOnly = {
      interactiveResponseMessage: {
        nativeFlowResponseMessage: { name: 'menu', paramsJson: '{"id":"opt-3","title":"Financeiro"}' },
      },
    };
    expect(translated(paramsOnly).body).toBe('Financeiro');
  });

  it('a poll: chat with the question and its options', () => {
    const poll = {
      pollCreationMessageV3: {
        name: 'Melhor horário?',
        selectableOptionsCount: 1,
        options: [{ optionName: 'Manhã' }, { optionName: 'Tarde' }],
      },
    };
    expect(translated(poll)).toEqual({ body: 'Enquete: Melhor horário?\n• Manhã\n• Tarde', mediaType: 'chat' });
  });

  it('missed-call notices (stubs) and call log messages are call_log', () => {
    const Stub = proto.WebMessageInfo.StubType;
    const missed = (stub: proto.WebMessageInfo.StubType, id: string) =>
      asMessage(normalised(waMessage({ key: { remoteJid: ANA_PN, fromMe: false, id }, messageStubType: stub })));
    expect(missed(Stub.CALL_MISSED_VOICE, 'C1').message).toMatchObject({
      id: 'C1',
      body: 'Chamada de voz perdida',
      mediaType: 'call_log',
    });
    expect(missed(Stub.CALL_MISSED_VIDEO, 'C2').message.body).toBe('Chamada de vídeo perdida');
    const inGroup = waMessage({
      key: { remoteJid: GROUP, participant: BRUNO_PN, fromMe: false, id: 'C3' },
      messageStubType: Stub.CALL_MISSED_GROUP_VOICE,
    });
    expect(asMessage(normalised(inGroup))).toMatchObject({
      group: { identifiers: [GROUP] },
      message: { body: 'Chamada de voz perdida' },
    });

    const log = {
      callLogMesssage: { isVideo: true, callOutcome: proto.Message.CallLogMessage.CallOutcome.CONNECTED, durationSecs: 125 },
    };
    expect(translated(log)).toEqual({ body: 'Chamada de vídeo atendida (2 min 5 s)', mediaType: 'call_log' });
  });

  it('events, group invites and orders become readable chat', () => {
    const event = { eventMessage: { name: 'Workshop', description: 'Sala 2', startTime: 1_767_268_800 } };
    expect(translated(event).body).toBe('Evento: Workshop\nSala 2\n2026-01-01T12:00:00.000Z');
    expect(translated({ groupInviteMessage: { groupName: 'Clientes VIP', caption: 'Entre no grupo' } }).body).toBe(
      'Convite para o grupo: Clientes VIP\nEntre no grupo',
    );
    const order = {
      orderMessage: {
        orderTitle: 'Pedido 77',
        itemCount: 3,
        totalAmount1000: 159_900,
        totalCurrencyCode: 'BRL',
        message: 'Entregar à tarde',
      },
    };
    expect(translated(order)).toEqual({ body: 'Pedido: Pedido 77\n3 itens — BRL 159.90\nEntregar à tarde', mediaType: 'chat' });
  });

  it('an unknown type is still stored: chat saying what it was, flagged for the log', () => {
    const event = asMessage(normalised(fromAna({ requestPhoneNumberMessage: {} })));
    expect(event.message).toMatchObject({
      body: 'Mensagem de um tipo ainda não suportado (requestPhoneNumberMessage)',
      mediaType: 'chat',
    });
    expect(event.unsupportedType).toBe('requestPhoneNumberMessage');
    // a field not named …Message (Baileys' getContentType would find nothing) is still the customer's message
    expect(asMessage(normalised(fromAna({ call: { callKey: Buffer.from([1]) } }))).unsupportedType).toBe('call');
  });

  it('bodies in other words when the session passes texts', () => {
    const message = waMessage({
      key: { remoteJid: ANA_PN, fromMe: false, id: 'C9' },
      messageStubType: proto.WebMessageInfo.StubType.CALL_MISSED_VOICE,
    });
    const english = { voiceCall: 'Voice call', callOutcome: { ...defaultOutcomes(), missed: 'missed' } };
    expect(asMessage(normalised(message, { texts: english })).message.body).toBe('Voice call missed');
  });
});

function defaultOutcomes() {
  return {
    incoming: 'received',
    missed: 'missed',
    silenced: 'silenced',
    connected: 'answered',
    rejected: 'declined',
    failed: 'failed',
    acceptedElsewhere: 'answered elsewhere',
    ongoing: 'ongoing',
  };
}

describe('edits, deletes and reactions', () => {
  const Type = proto.Message.ProtocolMessage.Type;

  it('a delete for everyone (protocolMessage REVOKE) names the deleted message', () => {
    const revoke = fromAna(
      { protocolMessage: { type: Type.REVOKE, key: { remoteJid: ANA_PN, fromMe: false, id: 'ANA-OLD' } } },
      'ANA-DEL',
    );
    expect(normalised(revoke)).toEqual({ kind: 'delete', channelMessageId: 'ANA-OLD', fromMe: false });
  });

  it('a deleted message as a REVOKE stub (history) deletes that message', () => {
    const stub = waMessage({
      key: { remoteJid: ANA_PN, fromMe: false, id: 'ANA-OLD' },
      messageStubType: proto.WebMessageInfo.StubType.REVOKE,
    });
    expect(normalised(stub)).toEqual({ kind: 'delete', channelMessageId: 'ANA-OLD', fromMe: false });
  });

  it('an edit (protocolMessage MESSAGE_EDIT): the edited message, its new text and when', () => {
    const edit = fromAna(
      {
        protocolMessage: {
          type: Type.MESSAGE_EDIT,
          key: { remoteJid: ANA_PN, fromMe: false, id: 'ANA-OLD' },
          editedMessage: { conversation: 'texto corrigido' },
          timestampMs: 1_763_000_100_000,
        },
      },
      'ANA-EDIT',
    );
    expect(normalised(edit)).toEqual({
      kind: 'edit',
      channelMessageId: 'ANA-OLD',
      body: 'texto corrigido',
      fromMe: false,
      editedAt: new Date(1_763_000_100_000),
    });
  });

  it('an edit wrapped in editedMessage (as WhatsApp sends it now), and of a caption', () => {
    const wrapped = fromAna({
      editedMessage: {
        message: {
          protocolMessage: {
            type: Type.MESSAGE_EDIT,
            key: { remoteJid: ANA_PN, fromMe: false, id: 'ANA-IMG' },
            editedMessage: { imageMessage: { caption: 'legenda nova' } },
          },
        },
      },
    });
    expect(normalised(wrapped)).toEqual({ kind: 'edit', channelMessageId: 'ANA-IMG', body: 'legenda nova', fromMe: false });
  });

  it("an editedMessage wrapper around content (Baileys' messages.update form): an edit of the key's message", () => {
    const update = fromAna({ editedMessage: { message: { extendedTextMessage: { text: 'versão final' } } } }, 'ANA-OLD');
    expect(normalised(update)).toEqual({ kind: 'edit', channelMessageId: 'ANA-OLD', body: 'versão final', fromMe: false });
  });

  it("a contact's reaction: the message, the emoji and the reacting contact's identifier (phone JID when known)", () => {
    const reaction = waMessage({
      key: { remoteJid: CARLA_LID, fromMe: false, id: 'R1' },
      message: {
        reactionMessage: { key: { remoteJid: CARLA_LID, fromMe: true, id: 'OUR-MSG' }, text: '👍', senderTimestampMs: 1 },
      },
    });
    expect(normalised(reaction)).toEqual({
      kind: 'reaction',
      channelMessageId: 'OUR-MSG',
      type: '👍',
      fromMe: false,
      contactIdentifier: CARLA_PN,
    });
  });

  it('a removed reaction has an empty type; a reaction from the company phone has no contact', () => {
    const removed = fromAna({ reactionMessage: { key: { remoteJid: ANA_PN, fromMe: true, id: 'OUR-MSG' }, text: '' } });
    expect(normalised(removed)).toMatchObject({ kind: 'reaction', channelMessageId: 'OUR-MSG', type: '' });
    const own = waMessage({
      key: { remoteJid: ANA_PN, fromMe: true, id: 'R2' },
      message: { reactionMessage: { key: { remoteJid: ANA_PN, fromMe: false, id: 'ANA-1' }, text: '❤️' } },
    });
    expect(normalised(own)).toEqual({ kind: 'reaction', channelMessageId: 'ANA-1', type: '❤️', fromMe: true });
  });

  it("a reaction in a group is the participant's (LID-only participant: the LID)", () => {
    const reaction = waMessage({
      key: { remoteJid: GROUP, participant: ANON_LID, fromMe: false, id: 'R3' },
      message: { reactionMessage: { key: { remoteJid: GROUP, fromMe: true, id: 'OUR-GROUP-MSG' }, text: '😂' } },
    });
    expect(normalised(reaction)).toMatchObject({
      kind: 'reaction',
      channelMessageId: 'OUR-GROUP-MSG',
      contactIdentifier: ANON_LID,
    });
  });
});

describe('what never reaches the inbox', () => {
  const Type = proto.Message.ProtocolMessage.Type;
  const fromPhone = (message: proto.IMessage) => waMessage({ key: { remoteJid: ANA_PN, fromMe: true, id: 'P' }, message });

  it.each([
    [
      'history sync notification',
      { protocolMessage: { type: Type.HISTORY_SYNC_NOTIFICATION, historySyncNotification: { chunkOrder: 1 } } },
    ],
    ['app state key share', { protocolMessage: { type: Type.APP_STATE_SYNC_KEY_SHARE, appStateSyncKeyShare: { keys: [] } } }],
    [
      'disappearing messages setting',
      { ephemeralMessage: { message: { protocolMessage: { type: Type.EPHEMERAL_SETTING, ephemeralExpiration: 86400 } } } },
    ],
  ])('protocol messages: %s', (_name, message) => {
    expect(normalised(fromPhone(message))).toMatchObject({ kind: 'ignore', reason: expect.stringContaining('protocol message') });
  });

  it('a group sender key alone, or message metadata alone', () => {
    const senderKey = waMessage({
      key: { remoteJid: GROUP, participant: BRUNO_PN, fromMe: false, id: 'SK' },
      message: { senderKeyDistributionMessage: { groupId: GROUP, axolotlSenderKeyDistributionMessage: Buffer.from([1, 2, 3]) } },
    });
    expect(normalised(senderKey)).toMatchObject({ kind: 'ignore', reason: expect.stringContaining('sender key') });
    const fastRatchet = fromAna({
      fastRatchetKeySenderKeyDistributionMessage: { groupId: GROUP },
      messageContextInfo: { messageSecret: Buffer.alloc(32) },
    });
    expect(normalised(fastRatchet).kind).toBe('ignore');
  });

  it('a sender key with a real message: the message', () => {
    const withText = waMessage({
      key: { remoteJid: GROUP, participant: BRUNO_PN, fromMe: false, id: 'SK2' },
      message: { senderKeyDistributionMessage: { groupId: GROUP }, conversation: 'primeira mensagem' },
    });
    expect(asMessage(normalised(withText)).message.body).toBe('primeira mensagem');
  });

  it('poll votes, pins, album headers and history notices', () => {
    expect(normalised(fromAna({ pollUpdateMessage: { pollCreationMessageKey: { id: 'POLL' } } }))).toMatchObject({
      kind: 'ignore',
      reason: expect.stringContaining('poll vote'),
    });
    expect(normalised(fromAna({ pinInChatMessage: { key: { id: 'X' } } })).kind).toBe('ignore');
    expect(normalised(fromAna({ albumMessage: { expectedImageCount: 3 } })).kind).toBe('ignore');
    expect(normalised(fromAna({ messageHistoryNotice: {} }))).toEqual({ kind: 'ignore', reason: 'history notice' });
  });

  it('empty messages, notices (stubs) and messages not decrypted yet', () => {
    const Stub = proto.WebMessageInfo.StubType;
    expect(normalised(waMessage({ key: { remoteJid: ANA_PN, fromMe: false, id: 'E' } }))).toEqual({
      kind: 'ignore',
      reason: 'empty message',
    });
    const added = waMessage({
      key: { remoteJid: GROUP, participant: BRUNO_PN, fromMe: false, id: 'ADD' },
      messageStubType: Stub.GROUP_PARTICIPANT_ADD,
      messageStubParameters: [JSON.stringify({ id: ANA_PN })],
    });
    expect(normalised(added)).toEqual({ kind: 'ignore', reason: 'notice GROUP_PARTICIPANT_ADD' });
    const undecrypted = waMessage({
      key: { remoteJid: ANA_PN, fromMe: false, id: 'CT' },
      messageStubType: Stub.CIPHERTEXT,
      messageStubParameters: ['Message absent from node'],
    });
    expect(normalised(undecrypted)).toMatchObject({ kind: 'ignore', reason: expect.stringContaining('same id') });
  });
});

describe('the stored payload (message.data)', () => {
  it('is JSON-safe and turns back into a WAMessage whose media Baileys can download', () => {
    const mediaKey = Buffer.alloc(32, 7);
    const original = waMessage({
      key: { remoteJid: ANA_LID, remoteJidAlt: ANA_PN, fromMe: false, id: 'IMG-1' },
      pushName: 'Ana',
      message: {
        imageMessage: {
          url: 'https://mmg.whatsapp.net/v/t62/abc',
          directPath: '/v/t62/abc',
          mediaKey,
          fileEncSha256: Buffer.alloc(32, 1),
          fileSha256: Buffer.alloc(32, 2),
          fileLength: 52_000,
          mimetype: 'image/jpeg',
          jpegThumbnail: Buffer.alloc(2_000, 9),
          contextInfo: { stanzaId: 'Q', quotedMessage: { conversation: 'antes' } },
        },
      },
    });
    const event = asMessage(normalised(original));
    const stored = JSON.parse(JSON.stringify(event.message.data)) as StoredWhatsAppMessage;
    expect(stored.key).toEqual({ remoteJid: ANA_LID, remoteJidAlt: ANA_PN, fromMe: false, id: 'IMG-1' });
    expect(stored.messageTimestamp).toBe(T);
    const image = (stored.message as { imageMessage: Record<string, unknown> }).imageMessage;
    expect(image.fileLength).toBe('52000');
    expect(image.jpegThumbnail).toBeUndefined();
    expect(image.contextInfo).toEqual({ stanzaId: 'Q' });

    const restored = messageFromStoredData(stored);
    expect(restored.key.remoteJidAlt).toBe(ANA_PN);
    const media = extractMessageContent(restored.message)?.imageMessage;
    expect(Buffer.from(media?.mediaKey ?? []).equals(mediaKey)).toBe(true);
    expect(media?.directPath).toBe('/v/t62/abc');
    expect(Number(media?.fileLength)).toBe(52_000);
  });
});

describe('calls', () => {
  function offer(fields: Partial<WACallEvent> = {}): WACallEvent {
    return {
      chatId: CARLA_LID,
      from: `${CARLA_LID.split('@')[0]}:5@lid`,
      id: 'CALL-7F3A',
      date: new Date(T * 1000),
      offline: false,
      status: 'offer',
      isVideo: false,
      isGroup: false,
      ...fields,
    };
  }

  it('an incoming voice call offer: a call_log message from the caller', () => {
    const event = asMessage(normaliseCall(offer({ callerPn: CARLA_PN }), context()));
    expect(event.contact).toEqual({ identifiers: [CARLA_PN, CARLA_LID], number: '5531966665555' });
    expect(event.message).toMatchObject({
      id: 'call:CALL-7F3A',
      fromMe: false,
      body: 'Chamada de voz recebida',
      mediaType: 'call_log',
      quotedId: null,
      timestamp: new Date(T * 1000),
      data: { call: { id: 'CALL-7F3A', isVideo: false, callerPn: CARLA_PN, date: new Date(T * 1000).toISOString() } },
    });
  });

  it('a video call; the other call states are ignored', () => {
    expect(asMessage(normaliseCall(offer({ isVideo: true }), context())).message.body).toBe('Chamada de vídeo recebida');
    expect(normaliseCall(offer({ status: 'terminate' }), context())).toEqual({ kind: 'ignore', reason: 'call terminate' });
  });

  it('a group call: on the group with allowGroup, ignored without', () => {
    const groupCall = offer({ isGroup: true, groupJid: GROUP });
    expect(asMessage(normaliseCall(groupCall, context())).group).toEqual({ identifiers: [GROUP], name: 'Equipe de vendas' });
    expect(normaliseCall(groupCall, context({ allowGroup: false })).kind).toBe('ignore');
  });

  it('lookupsForCall names the LID to resolve and the group', () => {
    expect(lookupsForCall(offer())).toEqual({ lids: [CARLA_LID], phoneJids: [], groupJid: null });
    expect(lookupsForCall(offer({ callerPn: CARLA_PN, groupJid: GROUP }))).toEqual({ lids: [], phoneJids: [], groupJid: GROUP });
  });
});
