import { isAppError, type OutboundMessage } from '@balcao/plugin-sdk/server';
import {
  type AnyMessageContent,
  generateWAMessageContent,
  generateWAMessageFromContent,
  proto,
  type WAMediaUploadFunction,
  type WAMessage,
} from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { buildOutboundContent, deleteContent, editContent, type OutboundContent, reactionContent } from './content';
import { messageKey } from './target';

/*
 * Every content goes through Baileys' own generation (what `sock.sendMessage` does before relaying), so the
 * assertions are on the protobuf WhatsApp receives. Media need Baileys' upload extension point: this one keeps
 * nothing and answers an address per media type, which also tells what Baileys uploaded the file as.
 */

const ANA_PN = '5511988887777@s.whatsapp.net';
const OWN_PN = '5511900001111@s.whatsapp.net';
const GROUP = '120363025246125888@g.us';
const BRUNO_LID = '207654321098765@lid';

const upload: WAMediaUploadFunction = async (_encryptedFile, { mediaType }) => ({
  mediaUrl: `https://mmg.whatsapp.net/test/${mediaType}`,
  directPath: `/test/${mediaType}`,
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64, 1)]);
const OGG = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(64, 2)]);
const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF');
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64)]);

function outbound(fields: Partial<OutboundMessage> & { file?: { fileName: string; mimetype: string | null } }): OutboundMessage {
  const { file, ...rest } = fields;
  return {
    messageId: 42,
    body: '',
    mediaType: 'chat',
    quoted: null,
    vCard: null,
    isForwarded: false,
    ...(file ? { media: { ...file, storageKey: `media/42/${file.fileName}`, open: async () => null } } : {}),
    ...rest,
  };
}

/** The message Baileys builds from a content, as `sendMessage` would relay it to `jid`. */
async function generated(built: OutboundContent, jid = ANA_PN): Promise<WAMessage> {
  const content = await generateWAMessageContent(built.content, { upload, jid });
  return generateWAMessageFromContent(jid, content, { ...built.options, userJid: OWN_PN });
}

function build(message: OutboundMessage, file: Buffer | null = null, jid = ANA_PN, quotedParticipant?: string) {
  return buildOutboundContent(message, file, {
    jid,
    messageId: 'BALCAO42A',
    ...(quotedParticipant ? { quotedParticipant } : {}),
  });
}

describe('text', () => {
  it('a text message with the id the caller chose', async () => {
    const built = build(outbound({ body: 'Olá, Ana!' }));
    expect(built.content).toEqual({ text: 'Olá, Ana!' });
    const sent = await generated(built);
    expect(sent.key).toMatchObject({ remoteJid: ANA_PN, fromMe: true, id: 'BALCAO42A' });
    expect(sent.message?.extendedTextMessage?.text).toBe('Olá, Ana!');
    expect(sent.message?.extendedTextMessage?.contextInfo).toBeFalsy();
  });

  it("a reply to the contact's message: the quote names it (stanzaId), its author and its text", async () => {
    const built = build(outbound({ body: 'Sim!', quoted: { channelMessageId: 'ANA-1', fromMe: false, body: 'Tem o azul?' } }));
    expect(built.options.quoted).toEqual({
      key: { remoteJid: ANA_PN, id: 'ANA-1', fromMe: false },
      message: { conversation: 'Tem o azul?' },
    });
    const contextInfo = (await generated(built)).message?.extendedTextMessage?.contextInfo;
    expect(contextInfo?.stanzaId).toBe('ANA-1');
    expect(contextInfo?.participant).toBe(ANA_PN);
    expect(contextInfo?.quotedMessage?.conversation).toBe('Tem o azul?');
  });

  it("a reply to the company's own message is quoted as the company's", async () => {
    const built = build(outbound({ body: 'Correção:', quoted: { channelMessageId: 'OUR-1', fromMe: true, body: 'R$ 40' } }));
    const contextInfo = (await generated(built)).message?.extendedTextMessage?.contextInfo;
    expect(contextInfo).toMatchObject({ stanzaId: 'OUR-1', participant: OWN_PN });
  });

  it('in a group, a reply names the quoted participant when the session knows it', async () => {
    const built = build(
      outbound({ body: 'Anotado', quoted: { channelMessageId: 'G-1', fromMe: false, body: 'Quero 2' } }),
      null,
      GROUP,
      BRUNO_LID,
    );
    const sent = await generated(built, GROUP);
    expect(sent.message?.extendedTextMessage?.contextInfo).toMatchObject({ stanzaId: 'G-1', participant: BRUNO_LID });
  });

  it('a forwarded text is marked forwarded (isForwarded, score 1)', async () => {
    const built = build(outbound({ body: 'Veja isto', isForwarded: true }));
    const contextInfo = (await generated(built)).message?.extendedTextMessage?.contextInfo;
    expect(contextInfo).toMatchObject({ isForwarded: true, forwardingScore: 1 });
  });
});

describe('files', () => {
  it('an image with its caption', async () => {
    const built = build(
      outbound({ body: 'Nosso catálogo', mediaType: 'image', file: { fileName: 'catalogo.png', mimetype: 'image/png' } }),
      PNG,
    );
    const image = (await generated(built)).message?.imageMessage;
    expect(image).toMatchObject({ caption: 'Nosso catálogo', mimetype: 'image/png', url: 'https://mmg.whatsapp.net/test/image' });
    expect(image?.mediaKey?.length).toBe(32);
  });

  it('a forwarded image replying to a message carries both marks', async () => {
    const message = outbound({
      mediaType: 'image',
      file: { fileName: 'foto.png', mimetype: 'image/png' },
      isForwarded: true,
      quoted: { channelMessageId: 'ANA-9', fromMe: false, body: 'Manda a foto' },
    });
    const contextInfo = (await generated(build(message, PNG))).message?.imageMessage?.contextInfo;
    expect(contextInfo).toMatchObject({ isForwarded: true, forwardingScore: 1, stanzaId: 'ANA-9' });
  });

  it('a video (mp4) with its caption; a format WhatsApp does not play goes as a document', async () => {
    const mp4 = build(
      outbound({ body: 'Tutorial', mediaType: 'video', file: { fileName: 'tutorial.mp4', mimetype: 'video/mp4' } }),
      MP4,
    );
    expect((await generated(mp4)).message?.videoMessage).toMatchObject({ caption: 'Tutorial', mimetype: 'video/mp4' });

    const mov = build(outbound({ mediaType: 'video', file: { fileName: 'clip.mov', mimetype: 'video/quicktime' } }), MP4);
    expect(mov.content).toMatchObject({ fileName: 'clip.mov', mimetype: 'video/quicktime' });
    expect((await generated(mov)).message?.documentMessage).toMatchObject({ fileName: 'clip.mov', mimetype: 'video/quicktime' });
  });

  it('a document with its name and caption; without a stored mimetype, the name decides', async () => {
    const built = build(
      outbound({ body: 'Segue o boleto', mediaType: 'application', file: { fileName: 'boleto.pdf', mimetype: null } }),
      PDF,
    );
    const document = (await generated(built)).message?.documentMessage;
    expect(document).toMatchObject({
      fileName: 'boleto.pdf',
      mimetype: 'application/pdf',
      caption: 'Segue o boleto',
      url: 'https://mmg.whatsapp.net/test/document',
    });
  });

  it("a document's name is no caption", () => {
    const built = build(
      outbound({ body: 'contrato.docx', mediaType: 'application', file: { fileName: 'contrato.docx', mimetype: null } }),
      PDF,
    );
    expect(built.content).toEqual({
      document: PDF,
      fileName: 'contrato.docx',
      mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
  });

  it("an audio is a voice note; the recorder's mp3 is declared as what it is (audio/mpeg)", async () => {
    const built = build(outbound({ mediaType: 'audio', file: { fileName: 'gravacao.mp3', mimetype: 'audio/mpeg' } }), MP3);
    expect(built.content).toEqual({ audio: MP3, ptt: true, mimetype: 'audio/mpeg' });
    const audio = (await generated(built)).message?.audioMessage;
    expect(audio).toMatchObject({ ptt: true, mimetype: 'audio/mpeg', url: 'https://mmg.whatsapp.net/test/audio' });
  });

  it('an Ogg voice note without a stored mimetype is declared Ogg/Opus (by its content)', async () => {
    const built = build(outbound({ mediaType: 'audio', file: { fileName: 'voz', mimetype: null } }), OGG);
    expect((await generated(built)).message?.audioMessage).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' });
    const labelled = build(outbound({ mediaType: 'audio', file: { fileName: 'voz.ogg', mimetype: 'audio/ogg' } }), OGG);
    expect(labelled.content).toMatchObject({ mimetype: 'audio/ogg; codecs=opus' });
  });

  it('a voice note has no caption: the text goes separately; audio WhatsApp cannot play goes as a document', () => {
    const captioned = build(
      outbound({ body: 'Ouça isto', mediaType: 'audio', file: { fileName: 'a.mp3', mimetype: 'audio/mpeg' } }),
      MP3,
    );
    expect(captioned.separateText).toBe('Ouça isto');
    const wav = build(outbound({ mediaType: 'audio', file: { fileName: 'a.wav', mimetype: 'audio/wav' } }), MP3);
    expect(wav.content).toMatchObject({ document: MP3, fileName: 'a.wav', mimetype: 'audio/wav' });
  });

  it("a stored file that can't be read fails the delivery (ERR_SENDING_WAPP_MSG) instead of sending the caption alone", () => {
    const message = outbound({ body: 'foto', mediaType: 'image', file: { fileName: 'x.png', mimetype: 'image/png' } });
    let thrown: unknown;
    try {
      build(message, null);
    } catch (error) {
      thrown = error;
    }
    expect(isAppError(thrown) && thrown.code).toBe('ERR_SENDING_WAPP_MSG');
  });
});

describe('contact cards and locations', () => {
  const BIA = 'BEGIN:VCARD\nVERSION:3.0\nN:Bia Souza\nFN:Bia Souza\nTEL;type=CELL;waid=5511988880000:+5511988880000\nEND:VCARD';
  const CAIO = 'BEGIN:VCARD\nVERSION:3.0\nN:Lima;Caio;;;\nTEL;type=CELL;waid=5511977770000:+5511977770000\nEND:VCARD';

  it("a contact card: its display name from the card's FN", async () => {
    const built = build(outbound({ body: BIA, mediaType: 'contactMessage', vCard: BIA }));
    expect(built.content).toEqual({
      contacts: { displayName: 'Bia Souza', contacts: [{ displayName: 'Bia Souza', vcard: BIA }] },
    });
    const card = (await generated(built)).message?.contactMessage;
    expect(card).toMatchObject({ displayName: 'Bia Souza', vcard: BIA });
  });

  it('a contactMessage without vCard uses its body; several cards make one contacts-array message', async () => {
    const built = build(outbound({ body: `${BIA}\n${CAIO}`, mediaType: 'contactMessage' }));
    const array = (await generated(built)).message?.contactsArrayMessage;
    expect(array?.displayName).toBe('Bia Souza, Caio Lima');
    expect(array?.contacts?.map((contact) => contact.displayName)).toEqual(['Bia Souza', 'Caio Lima']);
  });

  it('a location from `lat,lng` with the place on the following lines', async () => {
    const built = build(outbound({ body: '-23.5613496,-46.6565712\nMASP\nAv. Paulista, 1578', mediaType: 'locationMessage' }));
    expect(built.content).toEqual({
      location: { degreesLatitude: -23.5613496, degreesLongitude: -46.6565712, name: 'MASP', address: 'Av. Paulista, 1578' },
    });
    expect((await generated(built)).message?.locationMessage).toMatchObject({ degreesLatitude: -23.5613496, name: 'MASP' });
  });

  it("a location body that isn't coordinates is sent as text", () => {
    expect(build(outbound({ body: 'Rua das Flores, 10', mediaType: 'locationMessage' })).content).toEqual({
      text: 'Rua das Flores, 10',
    });
  });
});

describe('edits, deletes and reactions', () => {
  async function protoOf(content: AnyMessageContent): Promise<proto.Message> {
    return generateWAMessageContent(content, { upload, jid: ANA_PN });
  }

  it('an edit of the company message: MESSAGE_EDIT naming it, with the new text', async () => {
    const key = messageKey(ANA_PN, 'OUR-1', true);
    const message = await protoOf(editContent(key, 'texto novo'));
    expect(message.protocolMessage?.type).toBe(proto.Message.ProtocolMessage.Type.MESSAGE_EDIT);
    expect(message.protocolMessage?.key).toMatchObject({ remoteJid: ANA_PN, id: 'OUR-1', fromMe: true });
    expect(message.protocolMessage?.editedMessage?.extendedTextMessage?.text).toBe('texto novo');
  });

  it('a delete for everyone: REVOKE of the key', async () => {
    const message = await protoOf(deleteContent(messageKey(ANA_PN, 'OUR-2', true)));
    expect(message.protocolMessage?.type).toBe(proto.Message.ProtocolMessage.Type.REVOKE);
    expect(message.protocolMessage?.key?.id).toBe('OUR-2');
  });

  it("a reaction to the contact's message in a group names its author; '' removes it", async () => {
    const key = messageKey(GROUP, 'G-7', false, BRUNO_LID);
    expect(key).toEqual({ remoteJid: GROUP, id: 'G-7', fromMe: false, participant: BRUNO_LID });
    const message = await protoOf(reactionContent(key, '👍'));
    expect(message.reactionMessage).toMatchObject({ text: '👍', key: { id: 'G-7', participant: BRUNO_LID } });
    expect((await protoOf(reactionContent(key, ''))).reactionMessage?.text).toBe('');
  });

  it("the company's own message is found without a participant", () => {
    expect(messageKey(GROUP, 'OUR-3', true, BRUNO_LID)).toEqual({ remoteJid: GROUP, id: 'OUR-3', fromMe: true });
  });
});
