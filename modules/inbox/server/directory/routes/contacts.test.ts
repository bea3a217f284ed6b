import { runInTenant } from '@balcao/plugin-sdk/server';
import { connectSocket, createTestApp, nextEvent, type TestApp, type TestSession } from '@balcao/plugin-sdk/testing';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Contact, ContactEvent } from '../../../shared/types';
import { Contact as ContactModel } from '../../models/contact';
import { freshNumber, makeContact, makeTag, makeTicket, setSettings } from '../testing/directory-rows';

let t: TestApp;
let acme: number;
let lite: number;
let admin: TestSession;
let agent: TestSession;
let liteAdmin: TestSession;
const sockets: Socket[] = [];
let listening: Promise<string> | undefined;
/** The app's base URL for sockets (listening once). */
const baseUrl = () => {
  listening ??= t.listen();
  return listening;
};

beforeAll(async () => {
  t = await createTestApp();
  acme = t.demo.companies.acme;
  lite = t.demo.companies.lite;
  admin = await t.login('admin@acme.test');
  agent = await t.login('agent@acme.test');
  liteAdmin = await t.login('admin@lite.test');
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await setSettings(t, acme, { enableLGPD: 'disabled', lgpdHideNumber: 'disabled' });
});
afterAll(async () => {
  await t?.close();
});

const create = (token: string, payload: Record<string, unknown>) =>
  t.inject({ method: 'POST', url: '/api/contacts', token, payload });

describe('POST /contacts and PUT /contacts/:id', () => {
  it('creates a contact with the number stripped of its formatting, and extra fields', async () => {
    const res = await create(admin.token, {
      name: '  Maria Souza ',
      number: '+55 (11) 98888-7001',
      email: 'maria@example.com',
      extraInfo: [{ name: 'CPF', value: '123' }],
    });
    expect(res.statusCode).toBe(201);
    const contact = res.json() as Contact;
    expect(contact).toMatchObject({
      name: 'Maria Souza',
      number: '5511988887001',
      email: 'maria@example.com',
      active: true,
      disableBot: false,
      acceptAudioMessage: true,
      channel: 'whatsapp',
      whatsapp: null,
      tags: [],
    });
    expect(contact.extraInfo).toEqual([{ id: expect.any(Number), name: 'CPF', value: '123' }]);
  });

  it('refuses a short or long name, a number outside 8 to 50 digits or with letters, and a bad e-mail', async () => {
    const bad = [
      { name: 'A', number: freshNumber() },
      { name: ' A ', number: freshNumber() },
      { name: 'x'.repeat(251), number: freshNumber() },
      { name: 'Valid name', number: '1234567' },
      { name: 'Valid name', number: '1'.repeat(51) },
      { name: 'Valid name', number: '55abc119999' },
      { name: 'Valid name', number: '' },
      { name: 'Valid name', number: freshNumber(), email: 'not-an-email' },
    ];
    for (const payload of bad) {
      const res = await create(admin.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('ERR_VALIDATION');
    }
    expect((await create(admin.token, { name: 'Eight digits', number: '1234-5678' })).json().number).toBe('12345678');
  });

  it('refuses a number the company has already (409 ERR_DUPLICATED_CONTACT), formatted or not', async () => {
    const number = freshNumber();
    expect((await create(admin.token, { name: 'First one', number })).statusCode).toBe(201);
    const again = await create(agent.token, { name: 'Second one', number: `+${number.slice(0, 2)} ${number.slice(2)}` });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'ERR_DUPLICATED_CONTACT' });
    // another company may have the same number
    expect((await create(liteAdmin.token, { name: 'Lite one', number })).statusCode).toBe(201);
  });

  it('answers 409, not 500, when two creations of one number race (the unique index decides)', async () => {
    const number = freshNumber();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => create(admin.token, { name: `Racer ${i}`, number })));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('updates a contact, replacing its extra fields, and refuses another contact’s number', async () => {
    const other = await makeContact(acme, { name: 'Other', number: freshNumber() });
    const res = await create(admin.token, {
      name: 'To update',
      number: freshNumber(),
      extraInfo: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    });
    const id = res.json().id;
    const number = freshNumber();
    const put = await t.inject({
      method: 'PUT',
      url: `/api/contacts/${id}`,
      token: agent.token,
      payload: { name: 'Updated', number, email: '', extraInfo: [{ name: 'C', value: '3' }], disableBot: true },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: 'Updated', number, email: null, disableBot: true });
    expect(put.json().extraInfo.map((field: { name: string }) => field.name)).toEqual(['C']);

    const duplicate = await t.inject({
      method: 'PUT',
      url: `/api/contacts/${id}`,
      token: admin.token,
      payload: { name: 'Updated', number: other.number },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error).toBe('ERR_DUPLICATED_CONTACT');
    // without extraInfo the fields stay
    const keep = await t.inject({
      method: 'PUT',
      url: `/api/contacts/${id}`,
      token: admin.token,
      payload: { name: 'Updated again', number },
    });
    expect(keep.json().extraInfo).toHaveLength(1);
  });

  it('lets a contact without a number (webchat) keep none', async () => {
    const visitor = await makeContact(acme, { name: 'Web visitor', number: null, channel: 'webchat' });
    const put = await t.inject({
      method: 'PUT',
      url: `/api/contacts/${visitor.id}`,
      token: admin.token,
      payload: { name: 'Web visitor 2', number: null },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: 'Web visitor 2', number: null, channel: 'webchat' });
  });
});

describe('GET /contacts, /contacts/list, /contacts/:id, /contacts/profile/:number', () => {
  it('searches name, e-mail and number case-insensitively, filters channel and groups, and pages by 40', async () => {
    const tag = `Zq${Date.now().toString(36)}`;
    const imported = await t.inject({
      method: 'POST',
      url: '/api/contacts/import',
      token: admin.token,
      payload: {
        contacts: Array.from({ length: 45 }, (_, i) => ({
          name: `${tag} person ${String(i).padStart(2, '0')}`,
          number: freshNumber(),
        })),
      },
    });
    expect(imported.json().created).toBe(45);
    const page1 = await t.inject({ method: 'GET', url: `/api/contacts?searchParam=${tag.toUpperCase()}`, token: agent.token });
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toMatchObject({ hasMore: true, count: 45 });
    expect(page1.json().contacts).toHaveLength(40);
    expect(page1.json().contacts[0].name).toBe(`${tag} person 00`);
    const page2 = await t.inject({
      method: 'GET',
      url: `/api/contacts?searchParam=${tag}&pageNumber=2`,
      token: agent.token,
    });
    expect(page2.json()).toMatchObject({ hasMore: false, count: 45 });
    expect(page2.json().contacts).toHaveLength(5);

    const special = await makeContact(acme, {
      name: 'Pedro Special',
      email: `${tag}-mail@Example.com`,
      number: '5599123456789',
      channel: 'instagram',
    });
    const byEmail = await t.inject({ method: 'GET', url: `/api/contacts?searchParam=${tag}-MAIL`, token: admin.token });
    expect(byEmail.json().contacts.map((c: Contact) => c.id)).toEqual([special.id]);
    const byNumber = await t.inject({ method: 'GET', url: '/api/contacts?searchParam=99123456', token: admin.token });
    expect(byNumber.json().contacts.map((c: Contact) => c.id)).toEqual([special.id]);
    const byChannel = await t.inject({ method: 'GET', url: '/api/contacts?channel=instagram', token: admin.token });
    expect(byChannel.json().contacts.map((c: Contact) => c.id)).toContain(special.id);
    expect(byChannel.json().contacts.every((c: Contact) => c.channel === 'instagram')).toBe(true);
    const group = await makeContact(acme, { name: `${tag} group`, isGroup: true });
    const groups = await t.inject({ method: 'GET', url: `/api/contacts?searchParam=${tag}&isGroup=true`, token: admin.token });
    expect(groups.json().contacts.map((c: Contact) => c.id)).toEqual([group.id]);
    // LIKE wildcards are taken literally
    const wildcard = await t.inject({ method: 'GET', url: '/api/contacts?searchParam=%25%25%25', token: admin.token });
    expect(wildcard.json().count).toBe(0);
  });

  it('answers a contact, its summaries list and its profile by number (404 when unknown)', async () => {
    const contact = await makeContact(acme, { name: 'Profiled', urlPicture: 'https://example.com/p.jpg' });
    const one = await t.inject({ method: 'GET', url: `/api/contacts/${contact.id}`, token: agent.token });
    expect(one.json()).toMatchObject({ id: contact.id, name: 'Profiled', number: contact.number });

    const list = await t.inject({ method: 'GET', url: `/api/contacts/list?companyId=${acme}`, token: agent.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().find((c: { id: number }) => c.id === contact.id)).toEqual({
      id: contact.id,
      name: 'Profiled',
      number: contact.number,
      email: null,
      urlPicture: 'https://example.com/p.jpg',
      isGroup: false,
      channel: 'whatsapp',
      disableBot: false,
      active: true,
    });

    const profile = await t.inject({ method: 'GET', url: `/api/contacts/profile/${contact.number}`, token: agent.token });
    expect(profile.json()).toEqual({ contactId: contact.id, urlPicture: 'https://example.com/p.jpg' });
    const unknown = await t.inject({ method: 'GET', url: '/api/contacts/profile/5500000000000', token: agent.token });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    const missing = await t.inject({ method: 'GET', url: '/api/contacts/2000000000', token: agent.token });
    expect(missing.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
  });

  it('answers GET /contactTags/:contactId with the contact’s tags by name', async () => {
    const contact = await makeContact(acme);
    const b = await makeTag(acme, { name: 'Bbb tag' });
    const a = await makeTag(acme, { name: 'Aaa tag' });
    await t.inject({
      method: 'POST',
      url: '/api/tags/sync',
      token: admin.token,
      payload: {
        contactId: contact.id,
        tags: [
          { id: b.id, name: b.name },
          { id: a.id, name: a.name },
        ],
      },
    });
    const res = await t.inject({ method: 'GET', url: `/api/contactTags/${contact.id}`, token: agent.token });
    expect(res.json()).toEqual([
      { id: a.id, name: 'Aaa tag', color: '#123456' },
      { id: b.id, name: 'Bbb tag', color: '#123456' },
    ]);
  });
});

describe('contact search plan', () => {
  it('can answer the name / e-mail / number search from the trigram indexes (a bitmap OR of the three)', async () => {
    const plan = await t.balcao.core.knex.transaction(async (trx) => {
      // a test table is tiny and one company's btree wins there: ask how the OR itself is served, scans off
      await trx.raw('SET LOCAL enable_seqscan = off');
      const result = await trx.raw(`EXPLAIN SELECT id FROM contacts WHERE name ILIKE ? OR email ILIKE ? OR number LIKE ?`, [
        '%maria%',
        '%maria%',
        '%9988%',
      ]);
      return (result.rows as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('BitmapOr');
    // (the number's branch may take the unique number index on a tiny table; contacts_number_trgm on a big one)
    for (const index of ['contacts_name_trgm', 'contacts_email_trgm']) expect(plan).toContain(index);
  });
});

describe('LGPD number masking for profile users', () => {
  it('masks numbers to the last 2 digits for a profile user in every answer, groups excepted; admins see them', async () => {
    const contact = await makeContact(acme, { name: 'Masked person', number: '5511977776655' });
    const group = await makeContact(acme, { name: 'Masked group', number: '120363000000000123', isGroup: true });
    // on only when both settings are on
    await setSettings(t, acme, { enableLGPD: 'enabled' });
    expect((await t.inject({ method: 'GET', url: `/api/contacts/${contact.id}`, token: agent.token })).json().number).toBe(
      contact.number,
    );
    await setSettings(t, acme, { lgpdHideNumber: 'enabled' });

    const masked = '***********55';
    const get = (url: string, token: string) => t.inject({ method: 'GET', url, token }).then((res) => res.json());
    expect((await get(`/api/contacts/${contact.id}`, agent.token)).number).toBe(masked);
    expect((await get(`/api/contacts/${contact.id}`, admin.token)).number).toBe('5511977776655');
    expect((await get(`/api/contacts/${group.id}`, agent.token)).number).toBe('120363000000000123');
    const list = await get('/api/contacts?searchParam=Masked', agent.token);
    expect(list.contacts.find((c: Contact) => c.id === contact.id).number).toBe(masked);
    const summaries = await get('/api/contacts/list?searchParam=Masked person', agent.token);
    expect(summaries[0].number).toBe(masked);
    // a masked viewer can't find contacts by number
    expect((await get('/api/contacts?searchParam=5511977776655', agent.token)).count).toBe(0);

    // the masked number sent back by the edit form leaves the number unchanged, and the answer is masked
    const put = await t.inject({
      method: 'PUT',
      url: `/api/contacts/${contact.id}`,
      token: agent.token,
      payload: { name: 'Masked person 2', number: masked },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().number).toBe(masked);
    const stored = await runInTenant({ companyId: acme }, () => ContactModel.query().findById(contact.id));
    expect(stored?.number).toBe('5511977776655');
    const created = await create(agent.token, { name: 'Created masked', number: freshNumber() });
    expect(created.json().number).toMatch(/^\*+\d\d$/);
    const blocked = await t.inject({
      method: 'PUT',
      url: `/api/contacts/block/${contact.id}`,
      token: agent.token,
      payload: { active: false },
    });
    expect(blocked.json()).toMatchObject({ active: false, number: masked });
  });

  it('sends contact events masked to profile users and in clear to admins', async () => {
    await setSettings(t, acme, { enableLGPD: 'enabled', lgpdHideNumber: 'enabled' });
    const url = await baseUrl();
    const agentSocket = await connectSocket(url, acme, agent.token);
    const adminSocket = await connectSocket(url, acme, admin.token);
    sockets.push(agentSocket, adminSocket);
    const contact = await makeContact(acme, { name: 'Evented', number: '5511966665544' });
    const event = `company-${acme}-contact`;
    const toAgent = nextEvent<ContactEvent>(agentSocket, event, (p) => p.action === 'update' && p.contact.id === contact.id);
    const toAdmin = nextEvent<ContactEvent>(adminSocket, event, (p) => p.action === 'update' && p.contact.id === contact.id);
    const res = await t.inject({
      method: 'PUT',
      url: `/api/contacts/toggleDisableBot/${contact.id}`,
      token: admin.token,
    });
    expect(res.json()).toEqual({ disableBot: true });
    const [agentEvent, adminEvent] = await Promise.all([toAgent, toAdmin]);
    expect(agentEvent.action === 'update' && agentEvent.contact.number).toBe('***********44');
    expect(adminEvent.action === 'update' && adminEvent.contact).toMatchObject({ number: '5511966665544', disableBot: true });

    const deleted = nextEvent<ContactEvent>(agentSocket, event, (p) => p.action === 'delete' && p.contactId === contact.id);
    await t.inject({ method: 'DELETE', url: `/api/contacts/${contact.id}`, token: admin.token });
    await deleted;
  });
});

describe('DELETE, toggles and block', () => {
  it('deletes only with contacts-page:deleteContact (admins), with the contact’s tickets', async () => {
    const contact = await makeContact(acme);
    await makeTicket(acme, { contactId: contact.id, status: 'pending' });
    const refused = await t.inject({ method: 'DELETE', url: `/api/contacts/${contact.id}`, token: agent.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const res = await t.inject({ method: 'DELETE', url: `/api/contacts/${contact.id}`, token: admin.token });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.inject({ method: 'GET', url: `/api/contacts/${contact.id}`, token: admin.token })).statusCode).toBe(404);
    expect(await t.balcao.core.knex('tickets').where({ contactId: contact.id }).first()).toBeUndefined();
    expect((await t.inject({ method: 'DELETE', url: `/api/contacts/${contact.id}`, token: admin.token })).statusCode).toBe(404);
  });

  it('toggles audio acceptance and the bot, and blocks and unblocks', async () => {
    const contact = await makeContact(acme);
    const toggleAudio = () =>
      t.inject({ method: 'PUT', url: `/api/contacts/toggleAcceptAudio/${contact.id}`, token: agent.token });
    expect((await toggleAudio()).json()).toEqual({ acceptAudioMessage: false });
    expect((await toggleAudio()).json()).toEqual({ acceptAudioMessage: true });
    const bot = await t.inject({ method: 'PUT', url: `/api/contacts/toggleDisableBot/${contact.id}`, token: agent.token });
    expect(bot.json()).toEqual({ disableBot: true });
    const block = (active: boolean) =>
      t.inject({ method: 'PUT', url: `/api/contacts/block/${contact.id}`, token: agent.token, payload: { active } });
    expect((await block(false)).json()).toMatchObject({ id: contact.id, active: false });
    expect((await block(true)).json()).toMatchObject({ id: contact.id, active: true });
    expect(
      (await t.inject({ method: 'PUT', url: '/api/contacts/toggleAcceptAudio/2000000000', token: agent.token })).statusCode,
    ).toBe(404);
  });
});

describe('POST /contacts/import', () => {
  it('creates valid rows, skips known numbers and repeats, and reports invalid rows by position', async () => {
    const known = await makeContact(acme);
    const fresh = freshNumber();
    const res = await t.inject({
      method: 'POST',
      url: '/api/contacts/import',
      token: agent.token,
      payload: {
        contacts: [
          { name: 'Imported one', number: fresh, email: 'one@example.com' },
          { name: 'Known', number: known.number as string },
          { name: 'X', number: freshNumber() },
          { name: 'Bad number', number: '123' },
          { name: 'Bad mail', number: freshNumber(), email: 'nope' },
          { name: 'Repeat', number: `+${fresh}` },
          { number: freshNumber() },
          { name: 'Numeric cell', number: 5511912345678 },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      created: 2,
      skipped: 2,
      errors: [
        { row: 3, error: 'ERR_INVALID_NAME' },
        { row: 4, error: 'ERR_INVALID_NUMBER' },
        { row: 5, error: 'ERR_INVALID_EMAIL' },
        { row: 7, error: 'ERR_INVALID_NAME' },
      ],
    });
    const stored = await runInTenant({ companyId: acme }, () => ContactModel.query().findOne({ number: fresh }));
    expect(stored).toMatchObject({ name: 'Imported one', email: 'one@example.com' });
  });

  it('imports 5,000 rows in well under a few seconds, and refuses more', async () => {
    const base = 7_000_000_000 + (Date.now() % 1_000_000) * 1000;
    const rows = Array.from({ length: 5000 }, (_, i) => ({ name: `Bulk ${i}`, number: `55${base + i}` }));
    const started = Date.now();
    const res = await t.inject({ method: 'POST', url: '/api/contacts/import', token: admin.token, payload: { contacts: rows } });
    const elapsed = Date.now() - started;
    expect(res.json()).toEqual({ created: 5000, skipped: 0, errors: [] });
    expect(elapsed).toBeLessThan(3000);
    const again = await t.inject({
      method: 'POST',
      url: '/api/contacts/import',
      token: admin.token,
      payload: { contacts: rows },
    });
    expect(again.json()).toEqual({ created: 0, skipped: 5000, errors: [] });
    const tooMany = await t.inject({
      method: 'POST',
      url: '/api/contacts/import',
      token: admin.token,
      payload: { contacts: [...rows, { name: 'One more', number: freshNumber() }] },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toBe('ERR_VALIDATION');
  });
});

describe('cross-tenant', () => {
  it("refuses another company's admin every read and change of a contact (404), leaving it unchanged", async () => {
    const contact = await makeContact(acme, { name: 'Acme only' });
    const calls = [
      { method: 'GET', url: `/api/contacts/${contact.id}` },
      { method: 'GET', url: `/api/contacts/profile/${contact.number}` },
      { method: 'GET', url: `/api/contactTags/${contact.id}` },
      { method: 'PUT', url: `/api/contacts/${contact.id}`, payload: { name: 'Hacked', number: freshNumber() } },
      { method: 'PUT', url: `/api/contacts/toggleAcceptAudio/${contact.id}` },
      { method: 'PUT', url: `/api/contacts/toggleDisableBot/${contact.id}` },
      { method: 'PUT', url: `/api/contacts/block/${contact.id}`, payload: { active: false } },
      { method: 'DELETE', url: `/api/contacts/${contact.id}` },
    ] as const;
    for (const call of calls) {
      const res = await t.inject({ ...call, token: liteAdmin.token });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(res.body).not.toContain('Acme only');
    }
    const list = await t.inject({ method: 'GET', url: '/api/contacts?searchParam=Acme only', token: liteAdmin.token });
    expect(list.json().count).toBe(0);
    const stored = await runInTenant({ companyId: acme }, () => ContactModel.query().findById(contact.id));
    expect(stored).toMatchObject({ name: 'Acme only', active: true, disableBot: false, acceptAudioMessage: true });
    expect(lite).not.toBe(acme);
  });
});
