import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CampaignsKit, campaignsKit, fakeClock, numbers } from '../testing/kit';
import { onAnswer, tick } from './lifecycle';

/**
 * The dispatcher driven by hand with a clock of the test's own (no sleeping): the sending window in the
 * company's time zone and its weekends, the pacing of a connection, confirmations, stop words, retries.
 */
let kit: CampaignsKit;
const clock = fakeClock(new Date('2026-12-05T15:00:00Z'));

beforeAll(async () => {
  kit = await campaignsKit({ dispatcher: false });
  kit.dispatcher.clock = clock;
});
afterAll(async () => {
  await kit?.close();
});

async function settings(values: Record<string, unknown>) {
  const res = await kit.api('POST', '/campaign-settings', { settings: values });
  expect(res.status).toBe(200);
}

/** A campaign started now over these numbers. */
async function started(recipients: string[], extra: Record<string, unknown> = {}): Promise<number> {
  const listId = await kit.list(recipients);
  const res = await kit.api('POST', '/campaigns', {
    name: `Campanha ${recipients[0]}`,
    message1: 'Olá {nome}',
    whatsappId: kit.whatsappId,
    contactListId: listId,
    scheduledAt: new Date(Date.now() - 1000).toISOString(),
    ...extra,
  });
  expect(res.status).toBe(200);
  await tick(kit.ctx);
  const status = (await kit.api('GET', `/campaigns/${res.body.id}`)).body.status;
  expect(status).toBe('EM_ANDAMENTO');
  return res.body.id;
}

/** Runs the dispatcher until it finds nothing to do now. */
async function drain(): Promise<number> {
  let total = 0;
  for (;;) {
    const worked = await kit.dispatcher.runOnce();
    if (worked === 0) return total;
    total += worked;
  }
}

const sentTo = (recipients: string[]) => kit.provider.messages.filter((message) => recipients.includes(message.to));

describe('the sending window', () => {
  it('sends nothing on a Saturday without sabado, nor before startHour, and goes on at the window', async () => {
    await settings({
      messageInterval: 0,
      longerIntervalAfter: 0,
      greaterInterval: 0,
      sabado: false,
      domingo: false,
      startHour: '09:00',
      endHour: '18:00',
      timeZone: 'America/Sao_Paulo',
    });
    const recipients = numbers(3, '55611');
    await started(recipients);
    // Saturday 2026-12-05 12:00 in São Paulo (UTC−3)
    clock.set(new Date('2026-12-05T15:00:00Z'));
    expect(await drain()).toBe(0);
    // Monday 08:59 local: still closed
    clock.set(new Date('2026-12-07T11:59:00Z'));
    expect(await drain()).toBe(0);
    expect(sentTo(recipients)).toHaveLength(0);
    // Monday 09:00 local: open
    clock.set(new Date('2026-12-07T12:00:00Z'));
    expect(await drain()).toBe(3);
    expect(sentTo(recipients)).toHaveLength(3);
  });
});

describe('pacing', () => {
  it("spaces a connection's sends by messageInterval and pauses greaterInterval every longerIntervalAfter", async () => {
    await settings({
      messageInterval: 5,
      longerIntervalAfter: 5,
      greaterInterval: 60,
      sabado: true,
      domingo: true,
      startHour: '00:00',
      endHour: '00:00',
    });
    await kit.knex('campaignPacing').delete();
    const recipients = numbers(7, '55612');
    await started(recipients);
    clock.set(new Date('2026-12-08T12:00:00Z'));
    const sentAt: number[] = [];
    for (let second = 0; second <= 120 && sentTo(recipients).length < 7; second++) {
      const before = sentTo(recipients).length;
      await drain();
      for (let i = before; i < sentTo(recipients).length; i++) sentAt.push(second);
      clock.advance(1_000);
    }
    // one every 5 s; after the 5th, a 60 s pause
    expect(sentAt).toEqual([0, 5, 10, 15, 20, 80, 85]);
  });
});

describe('confirmation', () => {
  it('asks first, sends the message once answered, and counts both', async () => {
    await settings({ messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const recipients = numbers(2, '55613');
    const id = await started(recipients, {
      confirmation: true,
      confirmationMessage1: 'Podemos te mandar uma oferta, {nome}?',
      message1: 'Aqui está, {nome}!',
    });
    await drain();
    // a batch's recipients are delivered concurrently: the order they reach the provider in is not fixed
    expect(
      sentTo(recipients)
        .map((message) => message.body)
        .sort(),
    ).toEqual(['Podemos te mandar uma oferta, Pessoa 1?', 'Podemos te mandar uma oferta, Pessoa 2?']);
    let report = (await kit.api('GET', `/campaigns/${id}`)).body.report;
    expect(report).toMatchObject({ confirmationRequested: 2, confirmed: 0, delivered: 0 });

    // the first answers (as any channel's inbound message reaches the bus)
    const row = await kit.knex('campaignShippings').where({ campaignId: id, number: recipients[0] }).first();
    await onAnswer(kit.ctx, {
      companyId: kit.companyId,
      ticketId: row.ticketId,
      messageId: 1,
      contactId: row.contactId,
      whatsappId: kit.whatsappId,
      fromMe: false,
      ticketCreated: false,
      body: 'Sim!',
      ticket: { status: 'closed', userId: null, queueId: null, isGroup: false },
    });
    await drain();
    expect(sentTo(recipients).map((message) => message.body)).toContain('Aqui está, Pessoa 1!');
    expect(sentTo(recipients).filter((message) => message.to === recipients[1])).toHaveLength(1);
    report = (await kit.api('GET', `/campaigns/${id}`)).body.report;
    expect(report).toMatchObject({ confirmationRequested: 2, confirmed: 1, delivered: 1, pending: 1 });
  });
});

describe('stop words', () => {
  it('a recipient who answers SAIR gets no campaign again, and the report counts them', async () => {
    const recipients = numbers(2, '55614');
    const first = await started(recipients);
    await drain();
    const row = await kit.knex('campaignShippings').where({ campaignId: first, number: recipients[0] }).first();
    await onAnswer(kit.ctx, {
      companyId: kit.companyId,
      ticketId: row.ticketId,
      messageId: 1,
      contactId: row.contactId,
      whatsappId: kit.whatsappId,
      fromMe: false,
      ticketCreated: false,
      body: '  sair. ',
      ticket: { status: 'closed', userId: null, queueId: null, isGroup: false },
    });
    expect(await kit.knex('campaignOptOuts').where({ companyId: kit.companyId, number: recipients[0] }).first()).toBeTruthy();
    const before = sentTo(recipients).length;
    const second = await started(recipients);
    await drain();
    expect(sentTo(recipients).length - before).toBe(1);
    expect((await kit.api('GET', `/campaigns/${second}`)).body.report).toMatchObject({ optedOut: 1, delivered: 1 });
  });
});

describe('failures', () => {
  it('retries a send the provider refuses for a while, and fails a number the channel does not know', async () => {
    const recipients = numbers(2, '55615');
    kit.provider.unknownNumbers.add(recipients[1] as string);
    const id = await started(recipients);
    kit.provider.failNext(1);
    await drain();
    let rows = await kit.knex('campaignShippings').where({ campaignId: id }).orderBy('number');
    expect(rows.map((row) => [row.state, row.reason])).toEqual([
      ['queued', null],
      ['failed', 'ERR_WAPP_INVALID_CONTACT'],
    ]);
    // the retry waits 30 s
    clock.advance(29_000);
    expect(await drain()).toBe(0);
    clock.advance(2_000);
    await drain();
    rows = await kit.knex('campaignShippings').where({ campaignId: id }).orderBy('number');
    expect(rows.map((row) => row.state)).toEqual(['delivered', 'failed']);
    expect(sentTo(recipients)).toHaveLength(1);
  });
});
