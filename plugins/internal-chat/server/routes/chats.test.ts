import { connectSocket, nextEvent, recordEvents } from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatKit, chatKit } from '../testing/kit';

/**
 * The internal chat's calls (docs/product/automation.md "Internal chat") on a real app: members only, owner-only
 * edit and delete, unread counts and read marks, message pages, files, the plan gate and the live channels
 * reaching members and no one else.
 */
let kit: ChatKit;
beforeAll(async () => {
  kit = await chatKit();
});
afterAll(async () => {
  await kit?.close();
});

const newChat = async (title = 'Plantão de sábado', users?: number[]) => {
  const created = await kit.api(kit.admin, 'POST', '/chats', { title, users: users ?? [kit.agent.id] });
  expect(created.status).toBe(200);
  return created.body as { id: number; uuid: string; ownerId: number; users: Array<{ userId: number; unreads: number }> };
};

describe('chats and members', () => {
  it('creates a chat owned by the caller with the caller among its members, listed to members only', async () => {
    const chat = await newChat();
    expect(chat.ownerId).toBe(kit.admin.id);
    expect(chat.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat.users.map((member) => member.userId).sort()).toEqual([kit.admin.id, kit.agent.id].sort());

    const agentList = await kit.api(kit.agent, 'GET', '/chats');
    expect(agentList.status).toBe(200);
    expect(agentList.body.records.map((record: { id: number }) => record.id)).toContain(chat.id);
    expect((await kit.api(kit.agent, 'GET', `/chats/${chat.id}`)).body.title).toBe('Plantão de sábado');
    expect((await kit.api(kit.agent, 'GET', `/chats/u/${chat.uuid}`)).body.id).toBe(chat.id);

    const outsiderList = await kit.api(kit.outsider, 'GET', '/chats');
    expect(outsiderList.body.records.map((record: { id: number }) => record.id)).not.toContain(chat.id);
  });

  it('refuses non-members everything of a chat, as if it did not exist', async () => {
    const chat = await newChat('Só nós dois');
    for (const [method, url, payload] of [
      ['GET', `/chats/${chat.id}`],
      ['GET', `/chats/u/${chat.uuid}`],
      ['GET', `/chats/${chat.id}/messages`],
      ['POST', `/chats/${chat.id}/messages`, { message: 'posso entrar?' }],
      ['POST', `/chats/${chat.id}/read`, { userId: kit.outsider.id }],
      ['PUT', `/chats/${chat.id}`, { title: 'Meu agora' }],
      ['DELETE', `/chats/${chat.id}`],
    ] as const) {
      const answer = await kit.api(kit.outsider, method, url, payload);
      expect(answer, `${method} ${url}`).toMatchObject({ status: 404, body: { error: 'ERR_NO_CHAT_FOUND' } });
    }
    expect(await kit.knex('chatMessages').where({ chatId: chat.id }).count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('lets only the owner rename, change members and delete', async () => {
    const chat = await newChat('Turno da noite');
    const rename = await kit.api(kit.agent, 'PUT', `/chats/${chat.id}`, { title: 'Meu título' });
    expect(rename).toMatchObject({ status: 403, body: { error: 'ERR_CHAT_OWNER_ONLY' } });
    const remove = await kit.api(kit.agent, 'DELETE', `/chats/${chat.id}`);
    expect(remove).toMatchObject({ status: 403, body: { error: 'ERR_CHAT_OWNER_ONLY' } });

    const edited = await kit.api(kit.admin, 'PUT', `/chats/${chat.id}`, {
      title: '  Turno da madrugada ',
      users: [kit.outsider.id],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.title).toBe('Turno da madrugada');
    // the owner stays in; the agent, left out of the new list, is out
    expect(edited.body.users.map((member: { userId: number }) => member.userId).sort()).toEqual(
      [kit.admin.id, kit.outsider.id].sort(),
    );
    expect((await kit.api(kit.agent, 'GET', `/chats/${chat.id}`)).status).toBe(404);
    expect((await kit.api(kit.outsider, 'GET', `/chats/${chat.id}`)).status).toBe(200);

    expect((await kit.api(kit.admin, 'DELETE', `/chats/${chat.id}`)).status).toBe(204);
    expect((await kit.api(kit.admin, 'GET', `/chats/${chat.id}`)).status).toBe(404);
    expect(await kit.knex('chatUsers').where({ chatId: chat.id })).toEqual([]);
  });

  it('refuses a blank title, no members, and members of another company or of no one', async () => {
    const blank = await kit.api(kit.admin, 'POST', '/chats', { title: '   ', users: [kit.agent.id] });
    expect(blank).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    const nobody = await kit.api(kit.admin, 'POST', '/chats', { title: 'Vazio', users: [] });
    expect(nobody).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    const liteAdmin = (await kit.knex('users').where({ email: 'admin@lite.test' }).first('id')) as { id: number };
    const foreign = await kit.api(kit.admin, 'POST', '/chats', { title: 'Alheio', users: [liteAdmin.id] });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    const ghost = await kit.api(kit.admin, 'POST', '/chats', { title: 'Fantasma', users: [2_000_000_000] });
    expect(ghost).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    const chat = await newChat('Editar membros');
    const foreignEdit = await kit.api(kit.admin, 'PUT', `/chats/${chat.id}`, { users: [liteAdmin.id] });
    expect(foreignEdit).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    expect(await kit.knex('chats').where({ title: 'Alheio' })).toEqual([]);
  });

  it('answers 403 ERR_PLAN_FEATURE_DISABLED to a company whose plan lacks useInternalChat', async () => {
    const lite = await kit.t.login('admin@lite.test');
    for (const [method, url] of [
      ['GET', '/chats'],
      ['POST', '/chats'],
    ] as const) {
      const answer = await kit.api(lite, method, url, method === 'POST' ? { title: 'x', users: [1] } : undefined);
      expect(answer).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    }
  });
});

describe('messages, unread counts and read marks', () => {
  it("counts unread messages per member, clears the reader's own on a read mark, and sums them in the list", async () => {
    const chat = await newChat('Contagem');
    const before = (await kit.api(kit.agent, 'GET', '/chats')).body.unreads as number;
    for (const text of ['primeira', 'segunda', 'terceira']) {
      expect((await kit.api(kit.admin, 'POST', `/chats/${chat.id}/messages`, { message: text })).status).toBe(200);
    }
    const list = await kit.api(kit.agent, 'GET', '/chats');
    const listed = list.body.records[0];
    // the latest activity comes first
    expect(listed.id).toBe(chat.id);
    expect(listed.lastMessage).toBe('terceira');
    const unreadsOf = (c: { users: Array<{ userId: number; unreads: number }> }, id: number) =>
      c.users.find((member) => member.userId === id)?.unreads;
    expect(unreadsOf(listed, kit.agent.id)).toBe(3);
    expect(unreadsOf(listed, kit.admin.id)).toBe(0);
    expect(list.body.unreads).toBe(before + 3);

    const forOther = await kit.api(kit.agent, 'POST', `/chats/${chat.id}/read`, { userId: kit.admin.id });
    expect(forOther).toMatchObject({ status: 403, body: { error: 'ERR_CHAT_READ_OWN_ONLY' } });
    const read = await kit.api(kit.agent, 'POST', `/chats/${chat.id}/read`, { userId: kit.agent.id });
    expect(read.status).toBe(200);
    expect(unreadsOf(read.body, kit.agent.id)).toBe(0);
    expect(read.body.users.find((member: { userId: number }) => member.userId === kit.agent.id).lastReadAt).toEqual(
      expect.any(String),
    );
    expect((await kit.api(kit.agent, 'GET', '/chats')).body.unreads).toBe(before);

    // the agent answers: the admin's count grows, the agent's own stays 0
    await kit.api(kit.agent, 'POST', `/chats/${chat.id}/messages`, { message: 'lido!' });
    const after = (await kit.api(kit.admin, 'GET', `/chats/${chat.id}`)).body;
    expect(unreadsOf(after, kit.admin.id)).toBe(1);
    expect(unreadsOf(after, kit.agent.id)).toBe(0);
  });

  it('pages messages from the latest, 30 a page, each page oldest first', async () => {
    const chat = await newChat('Muitas mensagens');
    await kit.knex('chatMessages').insert(
      Array.from({ length: 35 }, (_, index) => ({
        companyId: kit.companyId,
        chatId: chat.id,
        senderId: kit.admin.id,
        message: `m${index + 1}`,
      })),
    );
    const first = await kit.api(kit.agent, 'GET', `/chats/${chat.id}/messages`);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.records.map((m: { message: string }) => m.message)).toEqual(
      Array.from({ length: 30 }, (_, index) => `m${index + 6}`),
    );
    expect(first.body.records[0].sender).toEqual({ id: kit.admin.id, name: 'Ana Admin' });
    const second = await kit.api(kit.agent, 'GET', `/chats/${chat.id}/messages?pageNumber=2`);
    expect(second.body).toMatchObject({ hasMore: false });
    expect(second.body.records.map((m: { message: string }) => m.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('refuses a blank message and one past 4,000 characters', async () => {
    const chat = await newChat('Validação');
    expect(await kit.api(kit.admin, 'POST', `/chats/${chat.id}/messages`, { message: '  \n ' })).toMatchObject({
      status: 400,
      body: { error: 'ERR_CHAT_MESSAGE_EMPTY' },
    });
    expect(await kit.api(kit.admin, 'POST', `/chats/${chat.id}/messages`, { message: 'x'.repeat(4001) })).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION' },
    });
    expect((await kit.api(kit.admin, 'GET', `/chats/${chat.id}/messages`)).body.records).toEqual([]);
  });

  it('sends a file, stored under the company and downloaded by its signed link', async () => {
    const chat = await newChat('Arquivos');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    );
    const boundary = '----chatboundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nveja a foto\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="foto da loja.png"\r\n`),
      Buffer.from('Content-Type: image/png\r\n\r\n'),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const sent = await kit.t.inject({
      method: 'POST',
      url: `/api/chats/${chat.id}/messages/media`,
      token: kit.agent.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(sent.statusCode).toBe(200);
    const message = sent.json();
    expect(message).toMatchObject({ message: 'veja a foto', mediaName: 'foto da loja.png', mediaType: 'image/png' });
    const download = await kit.t.inject({ method: 'GET', url: new URL(message.mediaUrl, 'http://x').pathname });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(png)).toBe(true);
    // the list shows the file's name as the last message when the text is empty
    const outsiderTry = await kit.t.inject({
      method: 'POST',
      url: `/api/chats/${chat.id}/messages/media`,
      token: kit.outsider.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(outsiderTry.statusCode).toBe(404);
  });
});

describe('live channels', () => {
  let url: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    url = await kit.t.listen();
  });
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });
  const connect = async (token: string) => {
    const socket = await connectSocket(url, kit.companyId, token);
    sockets.push(socket);
    return socket;
  };

  it("sends a chat's events to its members on the three channels, and nothing to anyone else", async () => {
    const adminSocket = await connect(kit.admin.token);
    const agentSocket = await connect(kit.agent.token);
    const outsiderSocket = await connect(kit.outsider.token);
    const outsiderEvents = recordEvents(outsiderSocket);
    const c = kit.companyId;

    const created = nextEvent<{ action: string; chat: { id: number } }>(agentSocket, `company-${c}-chat-user-${kit.agent.id}`);
    const chat = await newChat('Ao vivo');
    expect(await created).toMatchObject({ action: 'create', chat: { id: chat.id } });

    const onList = nextEvent<{ action: string; newMessage: { message: string } }>(
      agentSocket,
      `company-${c}-chat`,
      (payload) => payload.action === 'new-message',
    );
    const onChat = nextEvent<{ action: string; newMessage: { message: string }; chat: { users: unknown[] } }>(
      agentSocket,
      `company-${c}-chat-${chat.id}`,
    );
    const toSender = nextEvent(adminSocket, `company-${c}-chat-${chat.id}`);
    await kit.api(kit.admin, 'POST', `/chats/${chat.id}/messages`, { message: 'alguém aí?' });
    expect(await onList).toMatchObject({ action: 'new-message', newMessage: { message: 'alguém aí?' } });
    expect(await onChat).toMatchObject({ action: 'new-message', newMessage: { message: 'alguém aí?' } });
    await toSender;

    // typing reaches the other members, not the typist's own sockets
    const agentEvents = recordEvents(agentSocket);
    const typing = nextEvent<{ action: string }>(adminSocket, `company-${c}-chat-${chat.id}`, (p) => p.action === 'typing');
    expect((await kit.api(kit.agent, 'POST', `/chats/${chat.id}/typing`)).status).toBe(204);
    expect(await typing).toEqual({ action: 'typing', chatId: chat.id, userId: kit.agent.id, name: 'Alex Agente' });
    expect((await kit.api(kit.outsider, 'POST', `/chats/${chat.id}/typing`)).status).toBe(404);

    const readMark = nextEvent<{ action: string }>(adminSocket, `company-${c}-chat-${chat.id}`, (p) => p.action === 'update');
    await kit.api(kit.agent, 'POST', `/chats/${chat.id}/read`, { userId: kit.agent.id });
    expect(await readMark).toMatchObject({ action: 'update' });

    const deleted = nextEvent(agentSocket, `company-${c}-chat`, (payload: { action: string }) => payload.action === 'delete');
    await kit.api(kit.admin, 'DELETE', `/chats/${chat.id}`);
    expect(await deleted).toEqual({ action: 'delete', id: chat.id });

    // a round trip to the outsider's own socket after everything else: by then any leak would have arrived
    const probe = nextEvent(outsiderSocket, `company-${c}-chat-user-${kit.outsider.id}`);
    const own = await kit.api(kit.outsider, 'POST', '/chats', { title: 'Sonda', users: [kit.agent.id] });
    await probe;
    const leaked = outsiderEvents.filter(
      ({ event, payload }) => event.includes('-chat') && JSON.stringify(payload).includes(`"id":${chat.id},`),
    );
    expect(leaked).toEqual([]);
    expect(agentEvents.filter(({ payload }) => (payload as { action?: string }).action === 'typing')).toEqual([]);
    expect(outsiderEvents.filter(({ event }) => event === `company-${c}-chat-${chat.id}`)).toEqual([]);
    expect(own.status).toBe(200);
  });

  it("tells a changed user's chat partners to reload their lists, and every screen when a user is deleted", async () => {
    const c = kit.companyId;
    const hash = ((await kit.knex('users').where({ id: kit.agent.id }).first('passwordHash')) as { passwordHash: string })
      .passwordHash;
    await kit
      .knex('users')
      .insert({ companyId: c, name: 'Nina Nova', email: 'nina@acme.test', passwordHash: hash, profile: 'user' });
    const strangerSocket = await connect((await kit.t.login('nina@acme.test')).token);
    const strangerEvents = recordEvents(strangerSocket);
    const adminSocket = await connect(kit.admin.token);
    await newChat('Parceiros', [kit.agent.id]);

    // the agent changes: the admin, who shares a chat with them, reloads; Nina, who shares none, hears nothing
    const reload = nextEvent<{ action: string }>(adminSocket, `company-${c}-chat`, (p) => p.action === 'reload');
    expect((await kit.api(kit.admin, 'PUT', `/users/${kit.agent.id}`, { name: 'Alex Agente' })).status).toBe(200);
    expect(await reload).toEqual({ action: 'reload' });
    expect(strangerEvents.filter(({ payload }) => (payload as { action?: string }).action === 'reload')).toEqual([]);

    // a deleted user's memberships are gone with them: every screen of the company reloads, Nina's too
    const [leaving] = (await kit
      .knex('users')
      .insert({ companyId: c, name: 'Saulo Saindo', email: 'leaving@acme.test', passwordHash: hash, profile: 'user' })
      .returning('id')) as Array<{ id: number }>;
    const everyone = nextEvent<{ action: string }>(strangerSocket, `company-${c}-chat`, (p) => p.action === 'reload');
    expect((await kit.api(kit.admin, 'DELETE', `/users/${leaving?.id}`)).status).toBe(204);
    expect(await everyone).toEqual({ action: 'reload' });
  });
});
