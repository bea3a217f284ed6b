import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CampaignsKit, campaignsKit, numbers } from '../testing/kit';

/**
 * The campaigns' routes: the rules of docs/product/automation.md, docs/product/roles-and-permissions.md#roles-in-automation on the server (editability, cancel and restart,
 * validation, ids of the company only, profile users refused), and a campaign sent to the loopback channel
 * end to end: each recipient's message on their ticket, once.
 */
let kit: CampaignsKit;
const batchBefore = process.env.CAMPAIGN_BATCH;
beforeAll(async () => {
  // small batches: a cancel then stops a campaign of 30 midway (one batch of 200 would send them all)
  process.env.CAMPAIGN_BATCH = '5';
  kit = await campaignsKit();
});
afterAll(async () => {
  await kit?.close();
  if (batchBefore === undefined) delete process.env.CAMPAIGN_BATCH;
  else process.env.CAMPAIGN_BATCH = batchBefore;
});

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'Promoção de verão',
  message1: 'Oi {nome}, seu número é {numero}!',
  whatsappId: kit.whatsappId,
  statusTicket: 'closed',
  openTicket: 'disabled',
  ...extra,
});

describe('campaign rules', () => {
  it('reads CAMPAIGN_BATCH from its validated configuration, as a number', () => {
    expect(kit.ctx.config.CAMPAIGN_BATCH).toBe(5);
    expect(kit.ctx.config.CAMPAIGN_LANES).toBe(2);
    expect(kit.dispatcher.options).toMatchObject({ batch: 5, lanes: 2, leaseMs: 30_000 });
  });

  it('saves INATIVA without a start and PROGRAMADA with one; a user needs a queue', async () => {
    const draft = await kit.api('POST', '/campaigns', body());
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({ status: 'INATIVA', confirmation: false, statusTicket: 'closed', openTicket: 'disabled' });

    const listId = await kit.list(numbers(2));
    const at = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const scheduled = await kit.api('PUT', `/campaigns/${draft.body.id}`, body({ contactListId: listId, scheduledAt: at }));
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.status).toBe('PROGRAMADA');

    const noQueue = await kit.api('POST', '/campaigns', body({ openTicket: 'enabled', userId: kit.t.demo.users.acmeAdmin }));
    expect(noQueue).toMatchObject({ status: 400, body: { error: 'ERR_CAMPAIGN_QUEUE_REQUIRED' } });
    const noRecipients = await kit.api('POST', '/campaigns', body({ scheduledAt: at }));
    expect(noRecipients).toMatchObject({ status: 400, body: { error: 'ERR_CAMPAIGN_NO_RECIPIENTS' } });
    const tooShort = await kit.api('POST', '/campaigns', body({ name: 'x' }));
    expect(tooShort).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });

  it('refuses to edit a campaign starting within the hour, or running', async () => {
    const listId = await kit.list(numbers(1, '55218'));
    const soon = new Date(Date.now() + 30 * 60_000).toISOString();
    const created = await kit.api('POST', '/campaigns', body({ contactListId: listId, scheduledAt: soon }));
    expect(created.body.status).toBe('PROGRAMADA');
    const edit = await kit.api('PUT', `/campaigns/${created.body.id}`, body({ contactListId: listId, name: 'Outro nome' }));
    expect(edit).toMatchObject({ status: 409, body: { error: 'ERR_CAMPAIGN_NOT_EDITABLE' } });
    const cancel = await kit.api('POST', `/campaigns/${created.body.id}/cancel`);
    expect(cancel).toMatchObject({ status: 409, body: { error: 'ERR_CAMPAIGN_NOT_RUNNING' } });
  });

  it("refuses another company's list, tag, user, queue and connection", async () => {
    const [company] = await kit
      .knex('companies')
      .insert({ name: 'Outra', email: 'outra@test.test', planId: 1, dueDate: '2999-12-31', status: true })
      .returning('id');
    const other = company.id as number;
    const [list] = await kit.knex('contactLists').insert({ companyId: other, name: 'Alheia' }).returning('id');
    const [tag] = await kit.knex('tags').insert({ companyId: other, name: 'Alheia' }).returning('id');
    const [queue] = await kit.knex('queues').insert({ companyId: other, name: 'Alheia', color: '#000000' }).returning('id');
    const [user] = await kit
      .knex('users')
      .insert({ companyId: other, name: 'Alheio', email: 'alheio@test.test', passwordHash: 'x', profile: 'admin' })
      .returning('id');
    const [connection] = await kit
      .knex('whatsapps')
      .insert({ companyId: other, name: 'Alheia', channel: 'loopback', token: 'alheia' })
      .returning('id');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ contactListId: list.id }, 'ERR_NO_CONTACT_LIST_FOUND'],
      [{ tagListId: tag.id }, 'ERR_NO_TAG_FOUND'],
      // the core refuses another company's connection before the route runs, with the catalogue's code
      [{ whatsappId: connection.id }, 'ERR_NO_WAPP_FOUND'],
      [{ openTicket: 'enabled', userId: user.id, queueId: queue.id }, 'ERR_NO_USER_FOUND'],
      [{ openTicket: 'enabled', queueId: queue.id }, 'ERR_NO_QUEUE_FOUND'],
    ];
    for (const [extra, error] of cases) {
      const res = await kit.api('POST', '/campaigns', body(extra));
      expect(res, JSON.stringify(extra)).toMatchObject({ status: 404, body: { error } });
    }
  });

  it('refuses a profile user (403) on every campaign route', async () => {
    for (const [method, url] of [
      ['GET', '/campaigns'],
      ['GET', '/campaign-settings'],
      ['GET', '/contact-lists'],
      ['POST', '/campaigns'],
    ] as const) {
      const res = await kit.api(method, url, method === 'POST' ? body() : undefined, kit.userToken);
      expect(res.status, url).toBe(403);
    }
  });
});

describe('a campaign at work', () => {
  it('ends at once when restarted with nothing left to send (its last batch went out as it was cancelled)', async () => {
    const recipients = numbers(3, '55318');
    const listId = await kit.list(recipients);
    const created = await kit.api(
      'POST',
      '/campaigns',
      body({ contactListId: listId, message1: 'Oi {nome}', scheduledAt: new Date(Date.now() - 1_000).toISOString() }),
    );
    const id = created.body.id as number;
    await expect.poll(async () => (await kit.api('GET', `/campaigns/${id}`)).body.status, { timeout: 10_000 }).toBe('FINALIZADA');
    // as if the cancel had landed between the last batch's sends and its end
    await kit.knex('campaigns').where({ id }).update({ status: 'CANCELADA', completedAt: null });
    const restarted = await kit.api('POST', `/campaigns/${id}/restart`);
    expect(restarted.body.status).toBe('FINALIZADA');
    expect(kit.provider.perRecipient().get(recipients[0] as string)).toBe(1);
  });

  it('sends each recipient one message on their ticket, with its variables; cancel stops it and restart goes on', async () => {
    const recipients = numbers(30, '55317');
    const listId = await kit.list(recipients);
    await kit.api('POST', '/campaign-settings', { settings: { variables: [{ key: 'loja', value: 'Acme Centro' }] } });
    const created = await kit.api(
      'POST',
      '/campaigns',
      body({
        contactListId: listId,
        message1: 'Oi {nome} ({numero}) — {loja}',
        scheduledAt: new Date(Date.now() - 1_000).toISOString(),
      }),
    );
    expect(created.body.status).toBe('PROGRAMADA');
    const id = created.body.id as number;
    await kit.provider.waitFor(() => kit.provider.messages.length >= 5);
    const cancelled = await kit.api('POST', `/campaigns/${id}/cancel`);
    expect(cancelled.body.status).toBe('CANCELADA');
    // what was claimed before the cancel may finish; nothing is claimed after it
    await new Promise((resolve) => setTimeout(resolve, 700));
    const atCancel = kit.provider.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(kit.provider.messages.length).toBe(atCancel);

    const restarted = await kit.api('POST', `/campaigns/${id}/restart`);
    expect(restarted.body.status).toBe('EM_ANDAMENTO');
    await kit.provider.waitFor(() => recipients.every((number) => kit.provider.perRecipient().get(number) === 1));
    await expect.poll(async () => (await kit.api('GET', `/campaigns/${id}`)).body.status, { timeout: 10_000 }).toBe('FINALIZADA');
    const report = (await kit.api('GET', `/campaigns/${id}`)).body.report;
    expect(report).toMatchObject({ recipients: 30, valid: 30, delivered: 30, failed: 0, pending: 0 });

    // one message per recipient in SQL too, on a closed ticket of the loopback connection
    const rows = await kit
      .knex('messages as m')
      .join('contacts as c', 'c.id', 'm.contactId')
      .join('tickets as t', 't.id', 'm.ticketId')
      .where('m.companyId', kit.companyId)
      .whereIn('c.number', recipients)
      .select(
        'c.number',
        'c.name',
        'm.body',
        'm.sendStatus',
        'm.createdAt',
        't.status',
        't.whatsappId',
        't.lastMessage',
        't.updatedAt',
      );
    expect(rows).toHaveLength(30);
    const first = rows.find((row) => row.number === recipients[0]);
    expect(first).toMatchObject({
      body: `Oi Pessoa 1 (${recipients[0]}) — Acme Centro`,
      sendStatus: 'sent',
      status: 'closed',
      whatsappId: kit.whatsappId,
      // the ticket the campaign made ends on its message
      lastMessage: `Oi Pessoa 1 (${recipients[0]}) — Acme Centro`,
    });
    expect(new Date(first.updatedAt).getTime()).toBe(new Date(first.createdAt).getTime());
    expect(kit.provider.repeats).toBe(0);
  });
});
