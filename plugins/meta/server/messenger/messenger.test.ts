import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppMessage, companyWithPlan, connectSocket, type MetaTestApp, nextMessage, startMetaApp } from '../testing/kit';
import { PAGE_FIELDS } from './channel';

/**
 * Facebook Messenger and Instagram (docs/meta.md) against the Graph stand-in: the page-token flow of
 * `POST /facebook`, the platform-wide unique page, inbound messages (echoes, story mentions, referrals)
 * with the contact's profile from the Graph, and replies with the HUMAN_AGENT tag after 24 hours.
 */
let m: MetaTestApp;
let acme: number;
let admin: string;
let adminId: number;
let socket: Socket;
const userToken = 'EAAB-user-token-from-the-browser';
const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const call = async (method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${m.api}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

let sequence = 0;
const mid = () => {
  sequence += 1;
  return `m_${Date.now()}${sequence}`;
};
const messaging = (platform: 'facebook' | 'instagram', ownId: string, items: unknown[]) => ({
  object: platform === 'facebook' ? 'page' : 'instagram',
  entry: [{ id: ownId, time: Date.now(), messaging: items }],
});

beforeAll(async () => {
  m = await startMetaApp();
  acme = m.t.demo.companies.acme as number;
  const session = await m.t.login('admin@acme.test');
  admin = session.token;
  adminId = session.user.id;
  socket = await connectSocket(m.url, acme, admin);
  // the app's start with every plugin took over a minute on a machine shared with other suites
}, 180_000);
afterAll(async () => {
  socket?.close();
  await m?.close();
});

describe('POST /facebook', () => {
  it('exchanges the token, connects each page and its Instagram account, subscribes the app, and keeps pages unique', async () => {
    const page = m.graph.addPage(userToken, { name: 'Padaria Central', instagramUsername: 'padariacentral' });
    const bad = await call('POST', '/facebook', admin, { facebookUserId: '1234', facebookUserToken: 'EAAB-not-a-token' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_META_TOKEN_INVALID' } });

    const connected = await call('POST', '/facebook', admin, {
      facebookUserId: '1234',
      facebookUserToken: userToken,
      addInstagram: true,
    });
    expect(connected.status).toBe(200);
    const connections = connected.body.connections as Array<{ id: number; channel: string; number: string; name: string }>;
    expect(connections.map((connection) => [connection.channel, connection.number, connection.name])).toEqual([
      ['facebook', page.id, 'Padaria Central'],
      ['instagram', page.instagram?.id, '@padariacentral'],
    ]);
    expect(m.graph.subscribedPages.has(page.id)).toBe(true);
    const subscribe = m.graph.requests.find((request) => request.path.endsWith(`/${page.id}/subscribed_apps`));
    expect(subscribe?.query.subscribed_fields).toBe(PAGE_FIELDS);
    // versioned as configured, the app secret only in the token exchange
    expect(m.graph.requests.every((request) => request.path.startsWith('/v21.0/'))).toBe(true);
    const withSecret = m.graph.requests.filter((request) => JSON.stringify(request).includes(m.graph.app.secret));
    expect(withSecret.map((request) => request.path)).toEqual(['/v21.0/oauth/access_token', '/v21.0/oauth/access_token']);

    // what the Connections page's login dialog reads: the SDK's settings, then the pages found (no tokens)
    expect((await call('GET', '/meta/facebook/login', admin)).body).toEqual({
      configured: true,
      appId: m.graph.app.id,
      sdkUrl: `${m.graph.url}/sdk.js`,
      graphVersion: 'v21.0',
    });
    const found = await call('POST', '/meta/facebook/pages', admin, { facebookUserToken: userToken });
    expect(found.body).toEqual({
      pages: [
        {
          id: page.id,
          name: 'Padaria Central',
          instagram: { id: page.instagram?.id, username: 'padariacentral' },
          connected: { facebook: true, instagram: true },
        },
      ],
    });
    expect(JSON.stringify(found.body)).not.toContain(page.token);
    const notToken = await call('POST', '/meta/facebook/pages', admin, { facebookUserToken: 'EAAB-not-a-token' });
    expect(notToken).toMatchObject({ status: 400, body: { error: 'ERR_META_TOKEN_INVALID' } });

    const listed = await call('GET', `/whatsapp/${(connections[0] as { id: number }).id}`, admin);
    expect(listed.body).toMatchObject({
      status: 'CONNECTED',
      channel: 'facebook',
      channelConfig: { pageId: page.id, hasToken: true },
    });
    expect(JSON.stringify(listed.body)).not.toContain(page.token);

    const other = await companyWithPlan(m.t);
    const again = await call('POST', '/facebook', other.token, { facebookUserId: '1234', facebookUserToken: userToken });
    expect(again).toMatchObject({ status: 409, body: { error: 'ERR_META_ACCOUNT_IN_USE' } });
    const noPlan = await companyWithPlan(m.t, { useFacebook: false });
    expect((await call('POST', '/facebook', noPlan.token, { facebookUserId: '1', facebookUserToken: userToken })).body).toEqual({
      error: 'ERR_PLAN_FEATURE_DISABLED',
    });

    // a request cut short after a page's claim (the subscription failed) is completed by the same request again
    const cut = m.graph.addPage(userToken, { name: 'Padaria Sul' });
    m.graph.gate = async (method, path) => {
      if (method === 'POST' && path.endsWith(`/${cut.id}/subscribed_apps`)) {
        m.graph.gate = null;
        throw new Error('the Graph is down');
      }
    };
    const failed = await call('POST', '/facebook', admin, {
      facebookUserId: '1234',
      facebookUserToken: userToken,
      pageIds: [cut.id],
    });
    expect(failed.status).toBe(503);
    const retried = await call('POST', '/facebook', admin, {
      facebookUserId: '1234',
      facebookUserToken: userToken,
      pageIds: [cut.id],
    });
    expect(retried.status).toBe(200);
    expect(m.graph.subscribedPages.has(cut.id)).toBe(true);
    const rows = await m.t.balcao.core.knex('whatsapps').where({ companyId: acme, channel: 'facebook', name: 'Padaria Sul' });
    expect(rows.map((row) => [row.id, row.status])).toEqual([
      [(retried.body.connections as Array<{ id: number }>)[0]?.id, 'CONNECTED'],
    ]);

    // removed, the page's webhooks are unsubscribed (Meta would keep sending them to the shared app)
    const cutId = (retried.body.connections as Array<{ id: number }>)[0]?.id;
    const removed = await fetch(`${m.api}/whatsapp/${cutId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(removed.status).toBe(204);
    expect(m.graph.subscribedPages.has(cut.id)).toBe(false);
  });
});

describe('conversations', () => {
  it('stores Messenger texts with the Graph profile, echoes as fromMe, story mentions, referrals, and replies with HUMAN_AGENT after 24 h', async () => {
    const page = m.graph.addPage(userToken, { name: 'Loja Norte', instagramUsername: 'lojanorte' });
    await call('POST', '/facebook', admin, {
      facebookUserId: '1234',
      facebookUserToken: userToken,
      pageIds: [page.id],
      addInstagram: true,
    });
    const psid = m.graph.nextId('7');
    m.graph.profiles.set(psid, { first_name: 'Rita', last_name: 'Lopes', profile_pic: 'https://example.test/rita.jpg' });

    const first = nextMessage(socket, acme, (event) => event.action === 'create' && event.message.body === 'Tem pão de queijo?');
    const delivered = await m.graph.deliver(
      `${m.api}/meta/webhooks/facebook`,
      messaging('facebook', page.id, [
        {
          sender: { id: psid },
          recipient: { id: page.id },
          timestamp: Date.now(),
          message: { mid: mid(), text: 'Tem pão de queijo?' },
        },
      ]),
    );
    expect(delivered.status).toBe(200);
    const stored = (await first) as AppMessage & { contact: { name: string; urlPicture: string | null } };
    expect(stored.contact).toMatchObject({ name: 'Rita Lopes', urlPicture: 'https://example.test/rita.jpg' });
    const ticketId = stored.message.ticketId;

    const echo = nextMessage(socket, acme, (event) => event.action === 'create' && event.message.body === 'Temos sim!');
    await m.graph.deliver(
      `${m.api}/meta/webhooks/facebook`,
      messaging('facebook', page.id, [
        {
          sender: { id: page.id },
          recipient: { id: psid },
          timestamp: Date.now(),
          message: { mid: mid(), text: 'Temos sim!', is_echo: true },
        },
      ]),
    );
    expect((await echo).message).toMatchObject({ fromMe: true, ticketId });

    const igsid = m.graph.nextId('8');
    m.graph.profiles.set(igsid, { name: 'Caio', username: 'caio.ig', profile_pic: 'https://example.test/caio.jpg' });
    const storyBytes = m.graph.addMedia(Buffer.from('story-image'), 'image/jpeg');
    const mention = nextMessage(
      socket,
      acme,
      (event) => event.action === 'create' && event.message.body.includes('story mention'),
    );
    const referral = nextMessage(
      socket,
      acme,
      (event) => event.action === 'create' && event.message.mediaType === 'adMetaPreview',
    );
    await m.graph.deliver(
      `${m.api}/meta/webhooks/instagram`,
      messaging('instagram', page.instagram?.id as string, [
        {
          sender: { id: igsid },
          recipient: { id: page.instagram?.id },
          timestamp: Date.now(),
          message: {
            mid: mid(),
            attachments: [{ type: 'story_mention', payload: { url: `${m.graph.url}/media-download/${storyBytes}` } }],
          },
        },
        {
          sender: { id: igsid },
          recipient: { id: page.instagram?.id },
          timestamp: Date.now(),
          referral: { source: 'ADS', type: 'OPEN_THREAD', ref: 'promo-42' },
        },
      ]),
    );
    expect((await mention).message).toMatchObject({ mediaType: 'image' });
    expect((await referral).message.body).toContain('promo-42');

    // a day later the reply carries the HUMAN_AGENT tag
    const connection = await m.t.balcao.core
      .knex('metaAccounts')
      .where({ channel: 'facebook', externalId: page.id })
      .first('whatsappId');
    await m.t.balcao.core
      .knex('metaWindows')
      .where({ whatsappId: connection.whatsappId, identifier: psid })
      .update({ lastInboundAt: new Date(Date.now() - 30 * 3_600_000) });
    const [queue] = await m.t.balcao.core
      .knex('queues')
      .insert({ companyId: acme, name: 'Messenger queue', color: '#1677FF' })
      .returning('id');
    expect(
      (await call('PUT', `/tickets/${ticketId}`, admin, { status: 'open', userId: adminId, queueId: queue.id })).status,
    ).toBe(200);
    const sentToGraph = new Promise<{ body: Record<string, unknown> }>((resolve) => {
      m.graph.onSend = (sent) => resolve(sent);
    });
    expect((await call('POST', `/messages/${ticketId}`, admin, { body: 'Separamos uma fornada para você.' })).status).toBe(201);
    expect((await sentToGraph).body).toMatchObject({
      recipient: { id: psid },
      messaging_type: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
      message: { text: 'Separamos uma fornada para você.' },
    });

    // a file with text is two sends: a refused text neither fails nor resends the file, whose id is kept
    const sends: Array<{ body: Record<string, unknown>; id: string }> = [];
    m.graph.onSend = (sent) => {
      sends.push(sent);
      if (sends.length === 1) m.graph.sendFailures.push({ status: 500, code: 1, message: 'An unknown error occurred' });
    };
    const settled = nextMessage(
      socket,
      acme,
      (event) => event.action === 'update' && event.message.body === 'o cardápio' && event.message.sendStatus !== 'pending',
    );
    const form = new FormData();
    form.append('body', 'o cardápio');
    form.append('medias', new Blob([Buffer.from(ONE_PIXEL_PNG, 'base64')], { type: 'image/png' }), 'cardapio.png');
    const posted = await fetch(`${m.api}/messages/${ticketId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(posted.status).toBe(201);
    expect((await settled).message).toMatchObject({ sendStatus: 'sent', sendError: null });
    expect(sends).toHaveLength(1);
    const attachmentId = (sends[0] as { id: string }).id;
    expect((await m.t.balcao.core.knex('messages').where({ channelMessageId: attachmentId }).first('body'))?.body).toBe(
      'o cardápio',
    );
    m.graph.onSend = null;

    // echoes of this app's own sends are not stored again; a page's own (another tool) still are
    const after = nextMessage(socket, acme, (event) => event.action === 'create' && event.message.body === 'outra ferramenta');
    await m.graph.deliver(
      `${m.api}/meta/webhooks/facebook`,
      messaging('facebook', page.id, [
        {
          sender: { id: page.id },
          recipient: { id: psid },
          timestamp: Date.now(),
          message: { mid: mid(), text: 'o cardápio', is_echo: true, app_id: Number(m.graph.app.id) },
        },
        {
          sender: { id: page.id },
          recipient: { id: psid },
          timestamp: Date.now(),
          message: { mid: mid(), text: 'outra ferramenta', is_echo: true, app_id: 1234 },
        },
      ]),
    );
    await after;
    expect(await m.t.balcao.core.knex('messages').where({ ticketId, body: 'o cardápio' }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });
});

describe('sends cut off by a crash', () => {
  it('learns the Graph id from the page echo instead of sending again, and without an echo fails for the agent', async () => {
    const knex = m.t.balcao.core.knex;
    const page = m.graph.addPage(userToken, { name: 'Loja Leste' });
    await call('POST', '/facebook', admin, { facebookUserId: '1234', facebookUserToken: userToken, pageIds: [page.id] });
    const psid = m.graph.nextId('7');
    const opened = nextMessage(socket, acme, (event) => event.action === 'create' && event.message.body === 'Oi, loja leste');
    await m.graph.deliver(
      `${m.api}/meta/webhooks/facebook`,
      messaging('facebook', page.id, [
        {
          sender: { id: psid },
          recipient: { id: page.id },
          timestamp: Date.now(),
          message: { mid: mid(), text: 'Oi, loja leste' },
        },
      ]),
    );
    const ticketId = (await opened).message.ticketId;
    const [queue] = await knex('queues').insert({ companyId: acme, name: 'Fila Leste', color: '#1677FF' }).returning('id');
    expect(
      (await call('PUT', `/tickets/${ticketId}`, admin, { status: 'open', userId: adminId, queueId: queue.id })).status,
    ).toBe(200);

    const sendOne = async (body: string) => {
      const recorded = nextMessage(socket, acme, (event) => event.message.body === body && event.message.sendStatus === 'sent');
      expect((await call('POST', `/messages/${ticketId}`, admin, { body })).status).toBe(201);
      return (await recorded).message.id;
    };
    const sentOf = (body: string) =>
      m.graph.sent.filter((item) => (item.body.message as { text?: string } | undefined)?.text === body);
    /** The process died after the Graph took the message and before anything recorded its id. */
    const crash = async (messageId: number) => {
      await knex('messages').where({ id: messageId }).update({ channelMessageId: null, sendStatus: 'failed', ack: 0 });
      await knex('metaSendAttempts').where({ messageId }).update({ channelMessageId: null });
    };

    // the echo of our own send names our message (`metadata`): the retry answers its id and sends nothing
    const first = await sendOne('enviada uma vez pelo Messenger');
    const [sent] = sentOf('enviada uma vez pelo Messenger');
    expect(sent?.body.message).toMatchObject({ metadata: `balcao:${first}` });
    await crash(first);
    const echo = {
      sender: { id: page.id },
      recipient: { id: psid },
      timestamp: Date.now(),
      message: {
        mid: sent?.id,
        text: 'enviada uma vez pelo Messenger',
        is_echo: true,
        app_id: Number(m.graph.app.id),
        metadata: `balcao:${first}`,
      },
    };
    expect((await m.graph.deliver(`${m.api}/meta/webhooks/facebook`, messaging('facebook', page.id, [echo]))).status).toBe(200);
    await expect
      .poll(() => knex('metaSendAttempts').where({ messageId: first }).first('channelMessageId'))
      .toEqual({ channelMessageId: sent?.id });
    const reconciled = nextMessage(socket, acme, (event) => event.message.id === first && event.message.sendStatus === 'sent');
    expect((await call('POST', `/messages/${first}/retry`, admin)).status).toBe(200);
    await reconciled;
    expect(await knex('messages').where({ id: first }).first('channelMessageId')).toEqual({ channelMessageId: sent?.id });
    expect(sentOf('enviada uma vez pelo Messenger')).toHaveLength(1);
    // the echo itself is not a message of the conversation
    expect(await knex('messages').where({ ticketId, body: 'enviada uma vez pelo Messenger' }).count({ n: '*' })).toEqual([
      { n: 1 },
    ]);

    // no echo yet: the retries hold it (the page may have it) …
    const second = await sendOne('sem eco');
    await crash(second);
    const held = nextMessage(
      socket,
      acme,
      (event) => event.message.id === second && event.message.sendError === 'ERR_META_UNAVAILABLE',
    );
    await call('POST', `/messages/${second}/retry`, admin);
    await held;
    // … the ones that follow by themselves too, until they give up
    const redis = m.t.balcao.core.redis;
    const tries = `${m.t.balcao.core.config.redisPrefix}:cache:meta:send-tries:${second}`;
    await expect.poll(() => redis.get(tries), { timeout: 15_000 }).toBe('5');
    expect(sentOf('sem eco')).toHaveLength(1);

    // … and past the wait without an echo it fails with why, unsent: never a second copy on a guess
    await knex('metaSendAttempts')
      .where({ messageId: second })
      .update({ startedAt: new Date(Date.now() - 3 * 60_000) });
    const unconfirmed = nextMessage(
      socket,
      acme,
      (event) => event.message.id === second && event.message.sendError === 'ERR_META_SEND_UNCONFIRMED',
    );
    await call('POST', `/messages/${second}/retry`, admin);
    expect((await unconfirmed).message.sendStatus).toBe('failed');
    expect(sentOf('sem eco')).toHaveLength(1);

    // the agent looked and wants it sent: their retry sends it
    const resent = nextMessage(socket, acme, (event) => event.message.id === second && event.message.sendStatus === 'sent');
    await call('POST', `/messages/${second}/retry`, admin);
    await resent;
    expect(sentOf('sem eco')).toHaveLength(2);
  });
});
