import { createTestApp, type TestApp } from '@balcao/plugin-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUserToken } from '../services/embed-keys.service';
import { KanbanKit, type KitUser, randomOrigin } from '../testing/kit';

/** Embed keys (admin CRUD) and the widget's public API: origins, scopes, signed users, limits, the stream. */
/** Reads an event stream's text until a needle appears (5 s at most). */
function eventReader(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let received = '';
  const readUntil = async (needle: string) => {
    const deadline = Date.now() + 5_000;
    while (!received.includes(needle) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value);
    }
    return received.includes(needle);
  };
  return { reader, readUntil, text: () => received };
}

let t: TestApp;
let kit: KanbanKit;

beforeAll(async () => {
  t = await createTestApp();
  kit = new KanbanKit(t);
});
afterAll(async () => {
  await t?.close();
});

interface KeyFields {
  name?: string;
  allowedOrigins?: string[];
  mayMove?: boolean;
  signedUsers?: boolean;
  laneIds?: number[] | null;
}

async function createKey(admin: KitUser, fields: KeyFields = {}) {
  const res = await t.inject({
    method: 'POST',
    url: '/api/kanban-embed-keys',
    token: admin.token,
    payload: { name: 'Site', allowedOrigins: [randomOrigin()], mayMove: false, signedUsers: false, laneIds: null, ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; key: string; secret: string; allowedOrigins: string[] };
}

const board = (key: string, origin?: string) =>
  t.inject({ method: 'GET', url: `/api/kanban-embed/${key}/board`, headers: origin ? { origin } : {} });
const move = (key: string, origin: string, payload: Record<string, unknown>) =>
  t.inject({ method: 'POST', url: `/api/kanban-embed/${key}/moves`, headers: { origin }, payload });

describe('embed keys (admin)', () => {
  it('creates, lists, updates, rotates, revokes and deletes keys; origins are normalised', async () => {
    const { companyId, admin } = await kit.company();
    const lane = await kit.lane(companyId);
    const created = await createKey(admin, {
      name: 'Loja',
      allowedOrigins: ['https://Loja.Example:443/', 'http://localhost:8090'],
      laneIds: [lane],
    });
    expect(created).toMatchObject({
      name: 'Loja',
      allowedOrigins: ['https://loja.example', 'http://localhost:8090'],
      laneIds: [lane],
      revoked: false,
    });
    expect(created.key).toMatch(/^kbk_[A-Za-z0-9_-]{32}$/);

    const list = await t.inject({ method: 'GET', url: '/api/kanban-embed-keys', token: admin.token });
    expect(list.json().map((key: { id: number }) => key.id)).toEqual([created.id]);

    const updated = await t.inject({
      method: 'PUT',
      url: `/api/kanban-embed-keys/${created.id}`,
      token: admin.token,
      payload: { name: 'Loja nova', allowedOrigins: ['https://loja.example'], mayMove: true, signedUsers: true, laneIds: null },
    });
    expect(updated.json()).toMatchObject({
      name: 'Loja nova',
      mayMove: true,
      signedUsers: true,
      laneIds: null,
      key: created.key,
    });

    const rotated = await t.inject({ method: 'POST', url: `/api/kanban-embed-keys/${created.id}/secret`, token: admin.token });
    expect(rotated.json().secret).not.toBe(created.secret);

    const revoked = await t.inject({ method: 'POST', url: `/api/kanban-embed-keys/${created.id}/revoke`, token: admin.token });
    expect(revoked.json()).toMatchObject({ revoked: true, revokedAt: expect.any(String) });

    const removed = await t.inject({ method: 'DELETE', url: `/api/kanban-embed-keys/${created.id}`, token: admin.token });
    expect(removed.statusCode).toBe(204);
    expect((await t.inject({ method: 'GET', url: `/api/kanban-embed-keys/${created.id}`, token: admin.token })).statusCode).toBe(
      404,
    );
  });

  it('refuses bad origins, foreign lanes, agents and other companies', async () => {
    const { companyId, admin } = await kit.company();
    const other = await kit.company();
    const foreignLane = await kit.lane(other.companyId);
    const plain = await kit.plainTag(companyId);
    for (const fields of [
      { allowedOrigins: ['javascript:alert(1)'] },
      { allowedOrigins: ['https://a.example/path'] },
      { laneIds: [foreignLane] },
      { laneIds: [plain] },
    ]) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/kanban-embed-keys',
        token: admin.token,
        payload: {
          name: 'Site',
          allowedOrigins: ['https://ok.example'],
          mayMove: false,
          signedUsers: false,
          laneIds: null,
          ...fields,
        },
      });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    const agent = await kit.user(companyId);
    expect((await t.inject({ method: 'GET', url: '/api/kanban-embed-keys', token: agent.token })).statusCode).toBe(403);
    const key = await createKey(admin);
    const foreign = await t.inject({ method: 'GET', url: `/api/kanban-embed-keys/${key.id}`, token: other.admin.token });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('the public embed API', () => {
  it("shows the key's lanes and their cards to an allowed origin only, with CORS for that origin", async () => {
    const { companyId, admin } = await kit.company();
    // the hidden lane first: the lower id, which a card on both lanes would otherwise show in
    const hidden = await kit.lane(companyId, { name: 'Escondida' });
    const shown = await kit.lane(companyId, { name: 'Mostrada' });
    const plain = await kit.plainTag(companyId);
    const inShown = await kit.ticket(companyId, { lastMessage: 'no funil' });
    const inHidden = await kit.ticket(companyId);
    const noLane = await kit.ticket(companyId);
    // a card on a hidden lane and a shown one shows in the shown one
    const onBoth = await kit.ticket(companyId);
    await kit.knex('ticketTags').insert([
      { companyId, ticketId: inShown.id, tagId: shown },
      { companyId, ticketId: inShown.id, tagId: plain },
      { companyId, ticketId: inHidden.id, tagId: hidden },
      { companyId, ticketId: onBoth.id, tagId: hidden },
      { companyId, ticketId: onBoth.id, tagId: shown },
    ]);
    const key = await createKey(admin, { laneIds: [shown] });
    const origin = key.allowedOrigins[0] as string;

    const res = await board(key.key, origin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    const body = res.json();
    expect(body).toMatchObject({ name: 'Site', mayMove: false, defaultLane: false, lanes: [{ id: shown, name: 'Mostrada' }] });
    expect(body.tickets.map((card: { id: number }) => card.id).sort()).toEqual([inShown.id, onBoth.id].sort());
    const card = body.tickets.find((candidate: { id: number }) => candidate.id === inShown.id);
    expect(card).toMatchObject({ laneId: shown, tags: [], lastMessage: 'no funil', queueId: null, contact: { id: 0 } });
    expect(body.tickets.find((candidate: { id: number }) => candidate.id === onBoth.id).laneId).toBe(shown);
    expect(JSON.stringify(body)).not.toContain('Escondida');
    expect(body.tickets.map((card: { id: number }) => card.id)).not.toContain(noLane.id);

    const refused = await board(key.key, 'https://evil.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_EMBED_ORIGIN_REFUSED' });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect((await board(key.key)).json()).toEqual({ error: 'ERR_EMBED_ORIGIN_REFUSED' });
    expect((await board('kbk_unknownunknownunknownunknown0000', origin)).json()).toEqual({ error: 'ERR_NO_EMBED_KEY_FOUND' });
  });

  it('refuses a read-only key to move, a revoked key everything, and a key of a company without useKanban', async () => {
    const { companyId, admin } = await kit.company();
    const lane = await kit.lane(companyId);
    const ticket = await kit.ticket(companyId);
    const readOnly = await createKey(admin, { mayMove: false });
    const origin = readOnly.allowedOrigins[0] as string;
    const res = await move(readOnly.key, origin, { ticketId: ticket.id, laneId: lane });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_EMBED_READ_ONLY' });
    expect(await kit.lanesOf(ticket.id)).toEqual([]);

    const movable = await createKey(admin, { mayMove: true });
    await t.inject({ method: 'POST', url: `/api/kanban-embed-keys/${movable.id}/revoke`, token: admin.token });
    const revokedMove = await move(movable.key, movable.allowedOrigins[0] as string, { ticketId: ticket.id, laneId: lane });
    expect(revokedMove.json()).toEqual({ error: 'ERR_EMBED_KEY_REVOKED' });
    expect((await board(movable.key, movable.allowedOrigins[0])).statusCode).toBe(403);

    const withoutFlag = await kit.company({ kanban: false });
    const [row] = await kit
      .knex('kanbanEmbedKeys')
      .insert({
        companyId: withoutFlag.companyId,
        name: 'Sem plano',
        key: `kbk_${'n'.repeat(28)}${Date.now().toString().slice(-4)}`,
        secret: 's',
        allowedOrigins: JSON.stringify(['https://plan.example']),
        mayMove: true,
      })
      .returning('key');
    const gated = await board(row.key, 'https://plan.example');
    expect(gated.statusCode).toBe(403);
    expect(gated.json()).toEqual({ error: 'ERR_PLAN_FEATURE_DISABLED' });
  });

  it("moves a card within the key's lanes, with the automation, and never another company's ticket", async () => {
    const { companyId, admin } = await kit.company();
    const a = await kit.lane(companyId);
    const b = await kit.lane(companyId, { greetingMessageLane: 'Chegou na etapa B' });
    const outside = await kit.lane(companyId);
    const ticket = await kit.ticket(companyId);
    await kit.knex('ticketTags').insert({ companyId, ticketId: ticket.id, tagId: a });
    const key = await createKey(admin, { mayMove: true, laneIds: [a, b] });
    const origin = key.allowedOrigins[0] as string;

    const res = await move(key.key, origin, { ticketId: ticket.id, laneId: b });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ticketId: ticket.id, laneId: b });
    expect(await kit.lanesOf(ticket.id)).toEqual([b]);
    expect(await kit.laneLogs(ticket.id)).toHaveLength(1);
    expect((await kit.knex('messages').where({ ticketId: ticket.id })).map((m: { body: string }) => m.body)).toEqual([
      'Chegou na etapa B',
    ]);
    expect(await kit.knex('kanbanEmbedMoves').where({ ticketId: ticket.id })).toMatchObject([
      { embedKeyId: key.id, fromLaneId: a, toLaneId: b },
    ]);

    expect((await move(key.key, origin, { ticketId: ticket.id, laneId: outside })).json()).toEqual({
      error: 'ERR_NO_LANE_FOUND',
    });
    expect((await move(key.key, origin, { ticketId: ticket.id, laneId: null })).json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });

    const other = await kit.company();
    const foreignTicket = await kit.ticket(other.companyId);
    const otherLane = await kit.lane(other.companyId);
    await kit.knex('ticketTags').insert({ companyId: other.companyId, ticketId: foreignTicket.id, tagId: otherLane });
    const foreign = await move(key.key, origin, { ticketId: foreignTicket.id, laneId: b });
    expect(foreign.statusCode).toBe(404);
    expect(await kit.lanesOf(foreignTicket.id)).toEqual([otherLane]);
  });

  it('in signed-user mode needs a valid, unexpired, short-lived token and records the move under that user', async () => {
    const { companyId, admin } = await kit.company();
    const lane = await kit.lane(companyId);
    const ticket = await kit.ticket(companyId);
    const named = await kit.user(companyId, { email: `vendas-${Date.now()}@loja.test` });
    const email = (await kit.knex('users').where({ id: named.id }).first('email')).email as string;
    const key = await createKey(admin, { mayMove: true, signedUsers: true });
    const origin = key.allowedOrigins[0] as string;
    const now = Math.floor(Date.now() / 1000);
    const token = (payload: Partial<{ sub: string; name: string; email: string; exp: number }>, secret = key.secret) =>
      signUserToken(secret, { sub: 'u-1', name: 'Ana da Loja', exp: now + 300, ...payload });

    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'ERR_EMBED_USER_TOKEN_REQUIRED'],
      [{ userToken: token({}, 'wrong-secret') }, 'ERR_EMBED_USER_TOKEN_INVALID'],
      [{ userToken: token({ exp: now - 5 }) }, 'ERR_EMBED_USER_TOKEN_EXPIRED'],
      [{ userToken: token({ exp: now + 24 * 3600 }) }, 'ERR_EMBED_USER_TOKEN_INVALID'],
      [{ userToken: 'not-a-token' }, 'ERR_EMBED_USER_TOKEN_INVALID'],
    ];
    for (const [extra, error] of cases) {
      const res = await move(key.key, origin, { ticketId: ticket.id, laneId: lane, ...extra });
      expect(res.statusCode, error).toBe(401);
      expect(res.json()).toEqual({ error });
    }
    expect(await kit.lanesOf(ticket.id)).toEqual([]);

    const ok = await move(key.key, origin, { ticketId: ticket.id, laneId: lane, userToken: token({ email }) });
    expect(ok.statusCode, ok.body).toBe(200);
    const [log] = await kit.laneLogs(ticket.id);
    expect(log.userId).toBe(named.id);
    expect(await kit.knex('kanbanEmbedMoves').where({ ticketId: ticket.id })).toMatchObject([
      { actorSub: 'u-1', actorName: 'Ana da Loja', userId: named.id },
    ]);
  });

  it('answers the CORS preflight of a move for allowed origins only', async () => {
    const { admin } = await kit.company();
    const key = await createKey(admin, { mayMove: true });
    const origin = key.allowedOrigins[0] as string;
    const ok = await t.inject({ method: 'OPTIONS', url: `/api/kanban-embed/${key.key}/moves`, headers: { origin } });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers).toMatchObject({ 'access-control-allow-origin': origin, 'access-control-allow-methods': 'POST' });
    const refused = await t.inject({
      method: 'OPTIONS',
      url: `/api/kanban-embed/${key.key}/moves`,
      headers: { origin: 'https://x.example' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('limits the calls per key and address (429 ERR_RATE_LIMITED)', async () => {
    const { companyId, admin } = await kit.company();
    const lane = await kit.lane(companyId);
    const ticket = await kit.ticket(companyId);
    const key = await createKey(admin, { mayMove: false });
    const origin = key.allowedOrigins[0] as string;
    const statuses: number[] = [];
    for (let index = 0; index < 61; index += 1)
      statuses.push((await move(key.key, origin, { ticketId: ticket.id, laneId: lane })).statusCode);
    expect(statuses.slice(0, 60).every((status) => status === 403)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('streams a change to the widget when a card moves, and closes the stream when the key is revoked', async () => {
    const { companyId, admin } = await kit.company();
    const lane = await kit.lane(companyId);
    const ticket = await kit.ticket(companyId);
    const key = await createKey(admin);
    const origin = key.allowedOrigins[0] as string;
    const url = await t.listen();
    const response = await fetch(`${url}/api/kanban-embed/${key.key}/events`, { headers: { origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    const { reader, readUntil, text } = eventReader(response);
    expect(await readUntil('event: ready')).toBe(true);
    await kit.boardMove(admin.token, ticket.id, lane);
    expect(await readUntil('event: change')).toBe(true);
    expect(text()).not.toContain(String(ticket.uuid));

    await t.inject({ method: 'POST', url: `/api/kanban-embed-keys/${key.id}/revoke`, token: admin.token });
    expect(await readUntil('event: revoked')).toBe(true);
    const { done } = await reader.read();
    expect(done).toBe(true);
  });

  it('streams a move made through another process (two apps on one database and Redis)', async () => {
    const other = await createTestApp({
      seed: false,
      config: { databaseUrl: t.config.databaseUrl, redisPrefix: t.config.redisPrefix },
    });
    try {
      const { companyId, admin } = await kit.company();
      const lane = await kit.lane(companyId);
      const ticket = await kit.ticket(companyId);
      const key = await createKey(admin);
      const origin = key.allowedOrigins[0] as string;
      const url = await other.listen();
      const response = await fetch(`${url}/api/kanban-embed/${key.key}/events`, { headers: { origin } });
      const { reader, readUntil } = eventReader(response);
      expect(await readUntil('event: ready')).toBe(true);
      await kit.boardMove(admin.token, ticket.id, lane);
      expect(await readUntil('event: change')).toBe(true);
      await reader.cancel();
    } finally {
      await other.close();
    }
  });
});
