import { store } from '@balcao/plugin-sdk/ui';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Contact, QuickMessage, Tag } from '../../../shared/types';
import { serveApi, signIn } from '../shared/testing/render';
import { mergePage, removeRow, upsertRow } from './cache';
import { contactsApi, isNewContact } from './contacts';
import { quickMessagesApi } from './quick-messages';
import { tagsApi } from './tags';

function contact(id: number, name: string, fields: Partial<Contact> = {}): Contact {
  return {
    id,
    name,
    number: `55119999900${String(id).padStart(2, '0')}`,
    email: null,
    active: true,
    disableBot: false,
    acceptAudioMessage: true,
    lgpdAcceptedAt: null,
    urlPicture: null,
    isGroup: false,
    channel: 'whatsapp',
    whatsappId: null,
    whatsapp: null,
    extraInfo: [],
    tags: [],
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...fields,
  };
}

function tag(id: number, name: string, kanban: 0 | 1 = 0): Tag {
  return {
    id,
    name,
    color: '#7C7C7C',
    kanban,
    userId: 1,
    timeLane: null,
    nextLaneId: null,
    greetingMessageLane: null,
    rollbackLaneId: null,
    ticketTags: 0,
    contacts: 0,
  };
}

describe('merging pages', () => {
  it('replaces on page 1, appends later pages, and replaces rows already there', () => {
    const a = { id: 1, v: 'a' };
    const b = { id: 2, v: 'b' };
    expect(mergePage([a], [b], 1)).toEqual([b]);
    expect(mergePage([a], [b], 2)).toEqual([a, b]);
    expect(
      mergePage(
        [a, b],
        [
          { id: 1, v: 'A' },
          { id: 3, v: 'c' },
        ],
        2,
      ),
    ).toEqual([{ id: 1, v: 'A' }, b, { id: 3, v: 'c' }]);
  });

  it('upserts and removes rows by id', () => {
    const rows = [{ id: 1, v: 'a' }];
    expect(upsertRow(rows, { id: 1, v: 'A' }, true)).toBe('replaced');
    expect(upsertRow(rows, { id: 2, v: 'b' }, false)).toBe('none');
    expect(upsertRow(rows, { id: 2, v: 'b' }, true)).toBe('added');
    expect(rows).toEqual([
      { id: 2, v: 'b' },
      { id: 1, v: 'A' },
    ]);
    expect(removeRow(rows, 2)).toBe(true);
    expect(removeRow(rows, 2)).toBe(false);
  });
});

describe('the contacts cache', () => {
  beforeEach(() => signIn());

  it('tells a created contact from an old one updated (realtime events insert only the first)', () => {
    expect(isNewContact({ createdAt: '2024-01-01T10:00:00.000Z', updatedAt: '2024-01-01T10:00:00.500Z' })).toBe(true);
    expect(isNewContact({ createdAt: '2024-01-01T10:00:00.000Z', updatedAt: '2024-01-02T10:00:00.000Z' })).toBe(false);
  });

  it('merges the pages of one search into one entry and patches it after saves', async () => {
    const calls = serveApi(({ method, path, query, body }) => {
      if (method === 'GET' && path === '/contacts') {
        const page = Number(query.get('pageNumber'));
        return page === 1
          ? { status: 200, body: { contacts: [contact(1, 'Ana'), contact(2, 'Bia')], hasMore: true, count: 3 } }
          : { status: 200, body: { contacts: [contact(3, 'Caio')], hasMore: false, count: 3 } };
      }
      if (method === 'POST' && path === '/contacts') return { status: 201, body: contact(4, (body as { name: string }).name) };
      if (method === 'PUT' && path === '/contacts/block/2') return { status: 200, body: contact(2, 'Bia', { active: false }) };
      if (method === 'DELETE' && path === '/contacts/1') return { status: 204 };
      return undefined;
    });
    const read = () => contactsApi.endpoints.listContacts.select({ searchParam: '', pageNumber: 1 })(store.getState()).data;

    await store.dispatch(contactsApi.endpoints.listContacts.initiate({ searchParam: '', pageNumber: 1 }));
    await store.dispatch(contactsApi.endpoints.listContacts.initiate({ searchParam: '', pageNumber: 2 }));
    expect(read()?.contacts.map((row) => row.name)).toEqual(['Ana', 'Bia', 'Caio']);
    expect(read()?.hasMore).toBe(false);
    expect(calls.filter((call) => call.path === '/contacts').map((call) => call.query.get('pageNumber'))).toEqual(['1', '2']);

    await store.dispatch(contactsApi.endpoints.createContact.initiate({ name: 'Duda', number: '5511999990004' }));
    expect(read()?.contacts.map((row) => row.name)).toEqual(['Duda', 'Ana', 'Bia', 'Caio']);
    expect(read()?.count).toBe(4);

    await store.dispatch(contactsApi.endpoints.blockContact.initiate({ id: 2, active: false }));
    expect(read()?.contacts.find((row) => row.id === 2)?.active).toBe(false);
    expect(calls.at(-1)?.body).toEqual({ active: false });

    await store.dispatch(contactsApi.endpoints.deleteContact.initiate(1));
    expect(read()?.contacts.map((row) => row.id)).toEqual([4, 2, 3]);
    expect(read()?.count).toBe(3);
  });

  it('sends the toggle calls to the paths of the contract', async () => {
    const calls = serveApi(({ method, path }) => {
      if (method === 'PUT' && path === '/contacts/toggleDisableBot/7') return { status: 200, body: { disableBot: true } };
      if (method === 'PUT' && path === '/contacts/toggleAcceptAudio/7')
        return { status: 200, body: { acceptAudioMessage: false } };
      return undefined;
    });
    const bot = await store.dispatch(contactsApi.endpoints.toggleDisableBot.initiate(7));
    const audio = await store.dispatch(contactsApi.endpoints.toggleAcceptAudio.initiate(7));
    expect(bot.data).toEqual({ disableBot: true });
    expect(audio.data).toEqual({ acceptAudioMessage: false });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'PUT /contacts/toggleDisableBot/7',
      'PUT /contacts/toggleAcceptAudio/7',
    ]);
  });
});

describe('the tags cache', () => {
  beforeEach(() => signIn());

  it('puts a created tag only in the lists it belongs to', async () => {
    serveApi(({ method, path, query }) => {
      if (method === 'GET' && path === '/tags/list') {
        return { status: 200, body: query.get('kanban') === '1' ? [tag(2, 'Lane', 1)] : [tag(1, 'VIP'), tag(2, 'Lane', 1)] };
      }
      if (method === 'GET' && path === '/tags') return { status: 200, body: { tags: [tag(1, 'VIP')], hasMore: false } };
      if (method === 'POST' && path === '/tags') return { status: 201, body: tag(3, 'Novo lane', 1) };
      if (method === 'DELETE' && path === '/tags/1') return { status: 204 };
      return undefined;
    });
    await store.dispatch(tagsApi.endpoints.listTags.initiate({ kanban: true }));
    await store.dispatch(tagsApi.endpoints.pageTags.initiate({ searchParam: 'vip', pageNumber: 1 }));
    await store.dispatch(tagsApi.endpoints.pageTags.initiate({ searchParam: '', pageNumber: 1 }));

    await store.dispatch(tagsApi.endpoints.createTag.initiate({ name: 'Novo lane', color: '#7C7C7C', kanban: 1 }));
    const state = store.getState();
    expect(
      tagsApi.endpoints.listTags
        .select({ kanban: true })(state)
        .data?.map((row) => row.id),
    ).toEqual([3, 2]);
    expect(
      tagsApi.endpoints.pageTags
        .select({ searchParam: '', pageNumber: 1 })(state)
        .data?.tags.map((row) => row.id),
    ).toEqual([3, 1]);
    // the search 'vip' doesn't match 'Novo lane'
    expect(
      tagsApi.endpoints.pageTags
        .select({ searchParam: 'vip', pageNumber: 1 })(state)
        .data?.tags.map((row) => row.id),
    ).toEqual([1]);

    await store.dispatch(tagsApi.endpoints.deleteTag.initiate(1));
    expect(
      tagsApi.endpoints.pageTags
        .select({ searchParam: '', pageNumber: 1 })(store.getState())
        .data?.tags.map((row) => row.id),
    ).toEqual([3]);
  });
});

describe('quick message media', () => {
  beforeEach(() => signIn());

  it('uploads the attachment as multipart typeArch=quickMessage and file', async () => {
    const saved: QuickMessage = {
      id: 5,
      shortcode: 'oi',
      message: 'Olá',
      geral: false,
      visao: true,
      status: true,
      userId: 1,
      isMedia: true,
      mediaPath: 'a.pdf',
      mediaName: 'a.pdf',
      mediaUrl: null,
    };
    const calls = serveApi(({ method, path }) =>
      method === 'POST' && path === '/quick-messages/5/media-upload' ? { status: 200, body: saved } : undefined,
    );
    const file = new File(['%PDF'], 'a.pdf', { type: 'application/pdf' });
    const result = await store.dispatch(quickMessagesApi.endpoints.uploadQuickMessageMedia.initiate({ id: 5, file }));
    expect(result.data).toEqual(saved);
    const form = calls[0]?.body as FormData;
    expect(form.get('typeArch')).toBe('quickMessage');
    expect((form.get('file') as File).name).toBe('a.pdf');
  });
});
