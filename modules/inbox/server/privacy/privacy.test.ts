import { type PluginContext, runInTenant } from '@balcao/plugin-sdk/server';
import { createTestApp, S3StandIn, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyRetention, erasedName, PURGE_BATCH } from './privacy.service';
import { readZip } from './testing/read-zip';

const DAY = 24 * 60 * 60 * 1000;

describe.each(['local', 's3'] as const)('LGPD duties on the %s storage driver', (driver) => {
  let t: TestApp;
  let standIn: S3StandIn | undefined;
  let knex: Knex;
  let ctx: PluginContext;
  let acme: number;
  let admin: TestSession;
  let agent: TestSession;
  let liteAdmin: TestSession;

  beforeAll(async () => {
    let config = {};
    if (driver === 's3') {
      standIn = new S3StandIn('AKIDPRIVACYTEST', 'privacy stand-in secret', 'sa-east-1', ['media']);
      config = {
        storageDriver: 's3' as const,
        s3Endpoint: await standIn.start(),
        s3Bucket: 'media',
        s3Region: 'sa-east-1',
        s3AccessKeyId: 'AKIDPRIVACYTEST',
        s3SecretAccessKey: 'privacy stand-in secret',
        s3ForcePathStyle: true,
      };
    }
    t = await createTestApp({ config });
    knex = t.balcao.core.knex;
    ctx = (t.balcao.plugins.find((plugin) => plugin.definition.id === 'inbox') as { ctx: PluginContext }).ctx;
    acme = t.demo.companies.acme;
    [admin, agent, liteAdmin] = await Promise.all([
      t.login('admin@acme.test'),
      t.login('agent@acme.test'),
      t.login('admin@lite.test'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await standIn?.stop();
  });

  const storage = () => t.balcao.core.storage;
  const stored = (key: string) => storage().stat(acme, key);

  /** A contact with a closed ticket: a text message, a stored photo and a note; `ageDays` old. */
  async function conversation(name: string, options: { ageDays?: number; status?: string; userId?: number | null } = {}) {
    const at = new Date(Date.now() - (options.ageDays ?? 0) * DAY);
    const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const [contact] = await knex('contacts')
      .insert({ companyId: acme, name, number, email: `${number}@mail.test` })
      .returning('id');
    const contactId = (contact as { id: number }).id;
    await knex('contactIdentities').insert({
      companyId: acme,
      contactId,
      channel: 'whatsapp',
      identifier: `${number}@s.whatsapp.net`,
    });
    await knex('contactCustomFields').insert({ companyId: acme, contactId, name: 'CPF', value: '123.456.789-00' });
    const [ticket] = await knex('tickets')
      .insert({
        companyId: acme,
        contactId,
        status: options.status ?? 'closed',
        userId: options.userId ?? null,
        lastMessage: `segredo de ${name}`,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id');
    const ticketId = (ticket as { id: number }).id;
    const photo = `media/test/${ticketId}-photo.jpg`;
    await storage().put(acme, photo, Buffer.from(`photo of ${name}`));
    await knex('messages').insert([
      { companyId: acme, ticketId, contactId, body: `segredo de ${name} palavraunica${ticketId}`, createdAt: at, updatedAt: at },
      {
        companyId: acme,
        ticketId,
        contactId,
        body: '',
        mediaType: 'image',
        mediaPath: photo,
        mediaName: 'foto.jpg',
        createdAt: at,
        updatedAt: at,
      },
    ]);
    await knex('ticketNotes').insert({
      companyId: acme,
      ticketId,
      contactId,
      userId: t.demo.users.acmeAdmin,
      note: `nota sobre ${name}`,
    });
    return { contactId, ticketId, photo };
  }

  const messagesOf = async (ticketId: number) => Number((await knex('messages').where({ ticketId }).count('* as n'))[0]?.n);

  it('exports one contact as a zip: the contact, its tickets with notes, its messages and media files', async () => {
    const { contactId, ticketId, photo } = await conversation('Paula Exporta');
    // a message naming a file storage no longer holds: listed, without an entry
    await knex('messages').insert({
      companyId: acme,
      ticketId,
      contactId,
      body: '',
      mediaType: 'audio',
      mediaPath: 'media/test/gone.ogg',
    });
    const res = await t.inject({ method: 'GET', url: `/api/contacts/${contactId}/export`, token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="contact-${contactId}.zip"`);
    const zip = readZip(res.rawPayload);
    expect([...zip.keys()].filter((name) => !name.startsWith('media/'))).toEqual([
      'contact.json',
      'tickets.json',
      'messages.jsonl',
    ]);
    const contact = JSON.parse(String(zip.get('contact.json')));
    expect(contact).toMatchObject({
      id: contactId,
      name: 'Paula Exporta',
      extraInfo: [{ name: 'CPF', value: '123.456.789-00' }],
    });
    expect(contact.identities).toHaveLength(1);
    const tickets = JSON.parse(String(zip.get('tickets.json')));
    expect(tickets).toMatchObject([{ id: ticketId, status: 'closed', notes: [{ note: 'nota sobre Paula Exporta' }] }]);
    const messages = String(zip.get('messages.jsonl'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(messages).toHaveLength(3);
    expect(messages.find((message) => message.mediaType === 'audio').file).toBeNull();
    expect([...zip.keys()].filter((name) => name.startsWith('media/'))).toHaveLength(1);
    const media = messages.find((message) => message.mediaType === 'image');
    expect(media.file).toMatch(/^media\/\d+-foto\.jpg$/);
    expect(String(zip.get(media.file))).toBe('photo of Paula Exporta');
    expect(messages.every((message) => !('mediaPath' in message))).toBe(true);
    expect(await stored(photo)).not.toBeNull();
    // the drawer's media links stream from this driver too
    const link = await t.inject({ method: 'GET', url: storage().signedUrl(acme, photo, { fileName: 'foto.jpg' }) });
    expect(link.statusCode).toBe(200);
    expect(link.body).toBe('photo of Paula Exporta');

    const log = await t.inject({ method: 'GET', url: '/api/privacy/log', token: admin.token });
    expect(log.json().entries[0]).toMatchObject({ action: 'export', contactId, user: { id: admin.user.id } });
  });

  // the stand-in is how a test makes storage fail: only the s3 run has one
  if (driver === 's3')
    it('cuts an export whose media read fails and keeps serving', async () => {
      const { contactId } = await conversation('Sara Falha');
      const exports = () => knex('privacyLog').where({ companyId: acme, action: 'export', contactId }).count('* as n');
      // the photo's read fails on every attempt the client makes, after the archive has started
      (standIn as S3StandIn).failNext('GET', 3, 500);
      const cut = await t.inject({ method: 'GET', url: `/api/contacts/${contactId}/export`, token: admin.token }).then(
        (res) => res.rawPayload,
        (error: Error) => error,
      );
      expect(() => readZip(cut as Buffer)).toThrow();
      const next = await t.inject({ method: 'GET', url: '/api/privacy/retention', token: admin.token });
      expect(next.statusCode).toBe(200);
      expect(Number((await exports())[0]?.n)).toBe(1);

      // a storage outage while looking the files up fails the export before it starts, and it isn't logged
      (standIn as S3StandIn).failNext('HEAD', 3, 500);
      const refused = await t.inject({ method: 'GET', url: `/api/contacts/${contactId}/export`, token: admin.token });
      expect(refused.statusCode).toBeGreaterThanOrEqual(500);
      expect(refused.headers['content-type']).not.toBe('application/zip');
      expect(Number((await exports())[0]?.n)).toBe(1);
    });

  it('lets only admins of the contact’s company export or erase it', async () => {
    const { contactId } = await conversation('Rita Restrita');
    const asAgent = await t.inject({ method: 'GET', url: `/api/contacts/${contactId}/export`, token: agent.token });
    expect(asAgent.statusCode).toBe(403);
    const asLite = await t.inject({ method: 'GET', url: `/api/contacts/${contactId}/export`, token: liteAdmin.token });
    expect(asLite.statusCode).toBe(404);
    const erase = (token: string) =>
      t.inject({ method: 'POST', url: `/api/contacts/${contactId}/erase`, token, payload: { confirmation: 'Rita Restrita' } });
    expect((await erase(agent.token)).statusCode).toBe(403);
    expect((await erase(liteAdmin.token)).statusCode).toBe(404);
    expect(await knex('contacts').where({ id: contactId }).first('name')).toEqual({ name: 'Rita Restrita' });
  });

  it('erases a contact: messages and media removed, notes gone, tickets kept as anonymous shells, logged', async () => {
    const { contactId, ticketId, photo } = await conversation('Carla Apaga');
    // another contact's message forwarded the same stored file: it must survive
    const other = await conversation('Outro Contato');
    await knex('messages').insert({ companyId: acme, ticketId: other.ticketId, body: '', mediaType: 'image', mediaPath: photo });
    // and the contact wrote in another ticket (a group): its words there go too
    const groupWord = `grupounico${ticketId}`;
    await knex('messages').insert({ companyId: acme, ticketId: other.ticketId, contactId, body: `oi ${groupWord}` });
    const word = `palavraunica${ticketId}`;
    expect(await knex('searchVocabulary').where({ companyId: acme, word }).first()).toBeDefined();
    expect(await knex('searchVocabulary').where({ companyId: acme, word: groupWord }).first()).toBeDefined();

    const erase = (confirmation: string) =>
      t.inject({ method: 'POST', url: `/api/contacts/${contactId}/erase`, token: admin.token, payload: { confirmation } });
    const wrong = await erase('Carla');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'ERR_ERASURE_CONFIRMATION' });
    expect(await messagesOf(ticketId)).toBe(2);

    const ownPhoto = `media/test/${ticketId}-own.jpg`;
    await storage().put(acme, ownPhoto, Buffer.from('own'));
    await knex('messages').insert({ companyId: acme, ticketId, contactId, body: '', mediaType: 'image', mediaPath: ownPhoto });

    const res = await erase('Carla Apaga');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ contactId, tickets: 1, messages: 4, files: 1 });
    expect(await messagesOf(ticketId)).toBe(0);
    expect(await stored(ownPhoto)).toBeNull();
    expect(await stored(photo)).not.toBeNull(); // still named by the other contact's message
    expect(await knex('contacts').where({ id: contactId }).first('name', 'number', 'email')).toEqual({
      name: erasedName(contactId),
      number: null,
      email: null,
    });
    for (const table of ['contactIdentities', 'contactCustomFields']) {
      expect(await knex(table).where({ contactId }).first()).toBeUndefined();
    }
    expect(await knex('ticketNotes').where({ ticketId }).first()).toBeUndefined();
    expect(await knex('tickets').where({ id: ticketId }).first('status', 'lastMessage')).toEqual({
      status: 'closed',
      lastMessage: '',
    });
    expect(await knex('searchVocabulary').where({ companyId: acme, word }).first()).toBeUndefined();
    expect(await knex('searchVocabulary').where({ companyId: acme, word: groupWord }).first()).toBeUndefined();
    expect(await messagesOf(other.ticketId)).toBe(3);

    const log = await knex('privacyLog')
      .where({ companyId: acme, action: 'erase', contactId })
      .first('userId', 'details', 'createdAt');
    expect(log).toMatchObject({ userId: admin.user.id, details: { tickets: 1, messages: 4, files: 1 } });
    // the same erasure again (an interrupted one finished) changes nothing more
    expect((await erase(erasedName(contactId))).json()).toEqual({ contactId, tickets: 1, messages: 0, files: 0 });
  });

  it('refuses to erase a contact whose ticket is open with an agent, and closes its pending ones', async () => {
    const busy = await conversation('Bruno Atendido', { status: 'open', userId: t.demo.users.acmeAgent });
    const res = await t.inject({
      method: 'POST',
      url: `/api/contacts/${busy.contactId}/erase`,
      token: admin.token,
      payload: { confirmation: 'Bruno Atendido' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_ERASURE_OPEN_TICKET' });
    expect(await messagesOf(busy.ticketId)).toBe(2);

    const waiting = await conversation('Wanda Espera', { status: 'pending' });
    const erased = await t.inject({
      method: 'POST',
      url: `/api/contacts/${waiting.contactId}/erase`,
      token: admin.token,
      payload: { confirmation: 'Wanda Espera' },
    });
    expect(erased.statusCode).toBe(200);
    expect(await knex('tickets').where({ id: waiting.ticketId }).first('status')).toEqual({ status: 'closed' });
  });

  it("erases what arrives while the contact's tickets are being closed, and no accept slips past the check", async () => {
    const erase = (contactId: number, confirmation: string) =>
      t.inject({ method: 'POST', url: `/api/contacts/${contactId}/erase`, token: admin.token, payload: { confirmation } });
    const heldWhile = async (
      ticketId: number,
      request: () => Promise<unknown>,
      meanwhile: (trx: Knex.Transaction) => Promise<void>,
    ) => {
      const blocker = await knex.transaction();
      await blocker('tickets').where({ id: ticketId }).forUpdate().first('id');
      const answer = request();
      // the erasure waits on the ticket the blocker holds (a message being received, an agent accepting)
      await vi.waitFor(
        async () => {
          const waiting = await knex.raw(
            "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%from \"tickets\"%for update'",
          );
          expect(waiting.rows.length).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      await meanwhile(blocker);
      await blocker.commit();
      return answer;
    };

    const arriving = await conversation('Chega Agora', { status: 'pending' });
    const erased = (await heldWhile(
      arriving.ticketId,
      () => erase(arriving.contactId, 'Chega Agora'),
      async (trx) => {
        await trx('messages').insert({
          companyId: acme,
          ticketId: arriving.ticketId,
          contactId: arriving.contactId,
          body: 'nova',
        });
      },
    )) as { statusCode: number };
    expect(erased.statusCode).toBe(200);
    expect(await messagesOf(arriving.ticketId)).toBe(0);

    const accepted = await conversation('Aceito Agora', { status: 'pending' });
    const refused = (await heldWhile(
      accepted.ticketId,
      () => erase(accepted.contactId, 'Aceito Agora'),
      async (trx) => {
        await trx('tickets').where({ id: accepted.ticketId }).update({ status: 'open', userId: t.demo.users.acmeAgent });
      },
    )) as { statusCode: number; json: () => unknown };
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'ERR_ERASURE_OPEN_TICKET' });
    expect(await messagesOf(accepted.ticketId)).toBe(2);
  });

  it('keeps the retention setting per company, for admins only', async () => {
    const get = (token: string) => t.inject({ method: 'GET', url: '/api/privacy/retention', token });
    const put = (token: string, months: unknown) =>
      t.inject({ method: 'PUT', url: '/api/privacy/retention', token, payload: { months } });
    expect((await get(admin.token)).json()).toEqual({ months: null });
    expect((await put(admin.token, 0)).statusCode).toBe(400);
    expect((await put(admin.token, 121)).statusCode).toBe(400);
    expect((await put(agent.token, 6)).statusCode).toBe(403);
    expect((await put(admin.token, 6)).json()).toEqual({ months: 6 });
    expect((await get(admin.token)).json()).toEqual({ months: 6 });
    expect((await get(liteAdmin.token)).json()).toEqual({ months: null });
    expect((await put(admin.token, null)).json()).toEqual({ months: null });
    expect((await get(admin.token)).json()).toEqual({ months: null });
  });

  it('removes messages and media past the retention in batches, keeps newer ones, and finishes an interrupted run', async () => {
    const old = await conversation('Velho Cliente', { ageDays: 250 });
    const recent = await conversation('Novo Cliente', { ageDays: 20 });
    // more old messages than a batch, so the job takes several
    await knex.batchInsert(
      'messages',
      Array.from({ length: PURGE_BATCH + 30 }, (_, index) => ({
        companyId: acme,
        ticketId: old.ticketId,
        body: `antiga ${index}`,
        createdAt: new Date(Date.now() - 300 * DAY),
      })),
      500,
    );
    await t.inject({ method: 'PUT', url: '/api/privacy/retention', token: admin.token, payload: { months: 6 } });
    const before = await messagesOf(old.ticketId);

    // a run killed after deleting a file but before deleting its rows: the next run finishes it
    await storage().delete(acme, old.photo);
    if (standIn) {
      // and a storage outage mid-run: the run fails, leaves the rows naming files, and the next one finishes
      const bucket = standIn.buckets.get('media') as Map<string, unknown>;
      const lost = await storage().put(acme, 'media/test/outage.jpg', Buffer.from('x'));
      await knex('messages').insert({
        companyId: acme,
        ticketId: old.ticketId,
        body: '',
        mediaPath: lost.key,
        createdAt: new Date(Date.now() - 260 * DAY),
      });
      const realDelete = bucket.delete.bind(bucket);
      bucket.delete = () => {
        throw new Error('outage');
      };
      await expect(runInTenant({ companyId: acme }, () => applyRetention(ctx, acme))).rejects.toThrow();
      bucket.delete = realDelete;
      // the batches before the failing one stay done
      expect(await messagesOf(old.ticketId)).toBe(before + 1 - PURGE_BATCH);
    }
    const left = await messagesOf(old.ticketId);

    const removed = await runInTenant({ companyId: acme }, () => applyRetention(ctx, acme));
    expect(removed.messages).toBe(left);
    expect(await messagesOf(old.ticketId)).toBe(0);
    expect(await knex('tickets').where({ id: old.ticketId }).first('lastMessage')).toEqual({ lastMessage: '' });
    expect(await messagesOf(recent.ticketId)).toBe(2);
    expect(await stored(recent.photo)).not.toBeNull();
    if (standIn) expect(standIn.keys('media').filter((key) => key.includes('outage'))).toEqual([]);
    expect(await knex('privacyRetention').where({ companyId: acme }).first('leaseUntil')).toEqual({ leaseUntil: null });
    expect(await runInTenant({ companyId: acme }, () => applyRetention(ctx, acme))).toEqual({ messages: 0, files: 0 });
    expect(
      await knex('privacyLog').where({ companyId: acme, action: 'retention' }).orderBy('id', 'desc').first('details'),
    ).toMatchObject({
      details: { months: 6, messages: removed.messages },
    });
  });

  it("waits while another run holds the company's claim, and takes over once a killed worker's claim runs out", async () => {
    const old = await conversation('Claim Antigo', { ageDays: 400 });
    await t.inject({ method: 'PUT', url: '/api/privacy/retention', token: admin.token, payload: { months: 12 } });
    // a worker killed mid-run leaves its claim behind
    await knex('privacyRetention')
      .where({ companyId: acme })
      .update({ leaseUntil: knex.raw("now() + interval '5 minutes'") });
    expect(await runInTenant({ companyId: acme }, () => applyRetention(ctx, acme))).toEqual({ messages: 0, files: 0 });
    expect(await messagesOf(old.ticketId)).toBe(2);
    await knex('privacyRetention')
      .where({ companyId: acme })
      .update({ leaseUntil: knex.raw("now() - interval '1 second'") });
    expect(await runInTenant({ companyId: acme }, () => applyRetention(ctx, acme))).toEqual({ messages: 2, files: 1 });
    expect(await stored(old.photo)).toBeNull();
  });

  it('stops a run whose claim another run has taken over, and leaves that claim alone', async () => {
    const { ticketId } = await conversation('Lease Perdido');
    const at = (days: number) => new Date(Date.now() - days * DAY);
    const old = (count: number, days: number) =>
      Array.from({ length: count }, (_, index) => ({ companyId: acme, ticketId, body: `velha ${index}`, createdAt: at(days) }));
    // three batches, oldest first: the run is held inside the second one
    await knex.batchInsert('messages', [...old(PURGE_BATCH, 3003), ...old(PURGE_BATCH, 3002), ...old(30, 3001)], 500);
    await t.inject({ method: 'PUT', url: '/api/privacy/retention', token: admin.token, payload: { months: 6 } });
    const [second] = (await knex('messages')
      .where({ ticketId })
      .whereBetween('createdAt', [at(3002.5), at(3001.5)])
      .limit(1)
      .select('id')) as Array<{ id: string }>;
    expect(second).toBeDefined();
    const blocker = await knex.transaction();
    await blocker('messages')
      .where({ id: (second as { id: string }).id })
      .forUpdate()
      .first('id');
    const run = runInTenant({ companyId: acme }, () => applyRetention(ctx, acme));
    // the run waits on the locked row of its second batch; meanwhile its claim runs out and another run takes it
    await vi.waitFor(
      async () => {
        const waiting = await knex.raw(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'delete from \"messages\"%'",
        );
        expect(waiting.rows.length).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 50 },
    );
    const other = '00000000-0000-4000-8000-000000000001';
    await knex('privacyRetention')
      .where({ companyId: acme })
      .update({ leaseToken: other, leaseUntil: knex.raw("now() + interval '10 minutes'") });
    await blocker.commit();
    expect(await run).toMatchObject({ messages: 2 * PURGE_BATCH });
    expect(await messagesOf(ticketId)).toBe(30 + 2);
    expect(await knex('privacyRetention').where({ companyId: acme }).first('leaseToken')).toEqual({ leaseToken: other });
    await knex('privacyRetention').where({ companyId: acme }).update({ leaseToken: null, leaseUntil: null });
  });

  it('runs the retention as a durable job that the schedule fans out per company', async () => {
    const old = await conversation('Job Antigo', { ageDays: 400 });
    await t.inject({ method: 'PUT', url: '/api/privacy/retention', token: admin.token, payload: { months: 12 } });
    await t.balcao.core.jobs.enqueue('inbox', 'retention-sweep', {});
    await vi.waitFor(async () => expect(await messagesOf(old.ticketId)).toBe(0), { timeout: 15_000, interval: 100 });
    expect(await stored(old.photo)).toBeNull();
  });
});
