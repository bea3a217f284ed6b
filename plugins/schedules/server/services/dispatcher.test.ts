import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock, multipartFile, numbers, type SchedulesKit, schedulesKit } from '../testing/kit';
import { PLAN_OFF_WAIT_MS } from './dispatcher';

/**
 * The dispatcher with a clock the test moves (its loops off: each pass is `runOnce`): recurrence, the
 * business-days rule, retries and giving up.
 */
let kit: SchedulesKit;
const clock = fakeClock(new Date());
beforeAll(async () => {
  kit = await schedulesKit({ dispatcher: false });
  kit.dispatcher.clock = clock;
});
afterAll(() => kit?.close());
beforeEach(() => clock.set(new Date()));

/** Passes until nothing is claimed. */
async function drain(): Promise<void> {
  while ((await kit.dispatcher.runOnce()) > 0) {}
}

const row = async (id: number) => kit.knex('schedules').where({ id }).first();

describe('the dispatcher', () => {
  it('sends a repeated schedule once per occurrence, then marks it ENVIADA', async () => {
    const [number] = numbers(1, '55471');
    const [contactId] = await kit.contacts([number as string]);
    const created = await kit.api('POST', '/schedules', {
      body: 'Tome o remédio',
      sendAt: new Date(clock.now().getTime() + 60_000).toISOString(),
      contactId,
      intervalo: 1,
      valorIntervalo: 2,
      enviarQuantasVezes: 3,
    });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    const first = new Date(created.body.sendAt).getTime();

    await drain();
    expect(kit.provider.perRecipient().get(number as string)).toBeUndefined();

    clock.set(new Date(first + 1_000));
    await drain();
    await drain();
    expect(kit.provider.perRecipient().get(number as string)).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'PENDENTE', sentCount: 1, messageId: null });
    expect(new Date((await row(id)).sendAt).getTime()).toBe(first + 2 * 86_400_000);

    clock.set(new Date(first + 2 * 86_400_000 + 1_000));
    await drain();
    clock.set(new Date(first + 4 * 86_400_000 + 1_000));
    await drain();
    await drain();
    expect(kit.provider.perRecipient().get(number as string)).toBe(3);
    expect(await row(id)).toMatchObject({ status: 'ENVIADA', sentCount: 3 });
  });

  it('retries a send the channel failed, with the same message, and gives up on an unknown number', async () => {
    const [flaky, unknown] = numbers(2, '55472');
    const [flakyId, unknownId] = await kit.contacts([flaky as string, unknown as string]);
    kit.provider.unknownNumbers.add(unknown as string);
    const sendAt = clock.now().toISOString();
    const a = await kit.api('POST', '/schedules', { body: 'Tentativa', sendAt, contactId: flakyId });
    const b = await kit.api('POST', '/schedules', { body: 'Sem WhatsApp', sendAt, contactId: unknownId });
    kit.provider.failNext(1);
    await kit.dispatcher.runOnce();
    const failed = await row(a.body.id);
    expect(failed).toMatchObject({ status: 'PENDENTE', error: 'ERR_SENDING_WAPP_MSG' });
    expect(failed.messageId).not.toBeNull();
    expect(await row(b.body.id)).toMatchObject({ status: 'ERRO', error: 'ERR_WAPP_INVALID_CONTACT' });

    clock.advance(31_000);
    await drain();
    expect(await row(a.body.id)).toMatchObject({ status: 'ENVIADA', sentCount: 1, error: null });
    expect(kit.provider.perRecipient().get(flaky as string)).toBe(1);
    const messages = await kit.knex('messages').where({ companyId: kit.companyId, contactId: flakyId }).count({ n: '*' });
    expect(Number(messages[0]?.n)).toBe(1);
  });

  it('moves a business-days schedule set for a Saturday to Monday at opening', async () => {
    const [contactId] = await kit.contacts(numbers(1, '55473'));
    const saturday = new Date();
    saturday.setDate(saturday.getDate() + ((6 - saturday.getDay() + 7) % 7 || 7));
    saturday.setHours(10, 0, 0, 0);
    const created = await kit.api('POST', '/schedules', {
      body: 'Só em dia útil',
      sendAt: saturday.toISOString(),
      contactId,
      tipoDias: 5,
    });
    expect(created.status).toBe(200);
    const due = new Date(created.body.dueAt);
    expect(due.getDay()).toBe(1);
    expect([due.getHours(), due.getMinutes()]).toEqual([8, 0]);
    expect(created.body.sendAt).toBe(saturday.toISOString());
  });

  it('refuses to edit a schedule whose occurrence is in flight', async () => {
    const [contactId] = await kit.contacts(numbers(1, '55474'));
    const created = await kit.api('POST', '/schedules', { body: 'Em voo', sendAt: clock.now().toISOString(), contactId });
    await kit
      .knex('schedules')
      .where({ id: created.body.id })
      .update({ leaseUntil: new Date(Date.now() + 60_000) });
    const edit = await kit.api('PUT', `/schedules/${created.body.id}`, {
      body: 'Outro',
      sendAt: new Date(Date.now() + 3_600_000).toISOString(),
      contactId,
    });
    expect(edit).toMatchObject({ status: 409, body: { error: 'ERR_SCHEDULE_SENDING' } });
  });

  it('keeps an edited sent schedule sent, and ends one cut to fewer sends than made', async () => {
    const [number] = numbers(1, '55475');
    const [contactId] = await kit.contacts([number as string]);
    const sendAt = clock.now().toISOString();
    const once = await kit.api('POST', '/schedules', { body: 'Uma vez', sendAt, contactId });
    await drain();
    expect(await row(once.body.id)).toMatchObject({ status: 'ENVIADA', sentCount: 1 });
    const edited = await kit.api('PUT', `/schedules/${once.body.id}`, { body: 'Uma vez, corrigido', sendAt, contactId });
    expect(edited).toMatchObject({ status: 200, body: { status: 'ENVIADA', sentCount: 1 } });
    await drain();
    expect(kit.provider.perRecipient().get(number as string)).toBe(1);

    const repeated = await kit.api('POST', '/schedules', {
      body: 'Três vezes',
      sendAt,
      contactId,
      valorIntervalo: 1,
      enviarQuantasVezes: 3,
    });
    await drain();
    expect(await row(repeated.body.id)).toMatchObject({ status: 'PENDENTE', sentCount: 1 });
    const next = (await row(repeated.body.id)).sendAt;
    const cut = await kit.api('PUT', `/schedules/${repeated.body.id}`, {
      body: 'Três vezes',
      sendAt: new Date(next).toISOString(),
      contactId,
      valorIntervalo: 1,
      enviarQuantasVezes: 1,
    });
    expect(cut).toMatchObject({ status: 200, body: { status: 'ENVIADA', sentCount: 1 } });
    clock.advance(2 * 86_400_000);
    await drain();
    expect(kit.provider.perRecipient().get(number as string)).toBe(2);
  });

  it('takes the claim back from a lapsed lease on edit, so the old body is not linked', async () => {
    const [contactId] = await kit.contacts(numbers(1, '55476'));
    const created = await kit.api('POST', '/schedules', { body: 'Antigo', sendAt: clock.now().toISOString(), contactId });
    await kit
      .knex('schedules')
      .where({ id: created.body.id })
      .update({ leaseUntil: new Date(Date.now() - 1_000), leaseToken: '00000000-0000-4000-8000-0000000000aa' });
    const edit = await kit.api('PUT', `/schedules/${created.body.id}`, {
      body: 'Novo',
      sendAt: new Date(Date.now() + 3_600_000).toISOString(),
      contactId,
    });
    expect(edit.status).toBe(200);
    expect(await row(created.body.id)).toMatchObject({ leaseToken: null, leaseUntil: null, body: 'Novo' });
  });

  it("keeps a sent occurrence's file when the schedule's media is replaced, removed or deleted", async () => {
    const [contactId] = await kit.contacts(numbers(1, '55477'));
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = (id: number) =>
      kit.t.inject({
        method: 'POST',
        url: `/api/schedules/${id}/media-upload`,
        token: kit.adminToken,
        ...multipartFile({ name: 'foto.png', type: 'image/png', data: png }),
      });
    const exists = async (key: string) => (await kit.ctx.storage.get(kit.companyId, key)) !== null;
    const sendAt = clock.now().toISOString();
    const created = await kit.api('POST', '/schedules', {
      body: 'Com foto',
      sendAt,
      contactId,
      valorIntervalo: 1,
      enviarQuantasVezes: 2,
    });
    const id = created.body.id as number;
    expect((await upload(id)).statusCode).toBe(200);
    await drain();
    const sentKey = (await row(id)).mediaPath as string;
    const message = await kit.knex('messages').where({ companyId: kit.companyId, contactId }).first();
    expect(message.mediaPath).toBe(sentKey);

    expect((await upload(id)).statusCode).toBe(200);
    expect(await exists(sentKey)).toBe(true);
    const unsentKey = (await row(id)).mediaPath as string;
    expect((await kit.api('DELETE', `/schedules/${id}/media-upload`)).status).toBe(200);
    expect(await exists(unsentKey)).toBe(false);
    expect(await exists(sentKey)).toBe(true);

    const other = await kit.api('POST', '/schedules', { body: 'Outra foto', sendAt, contactId });
    expect((await upload(other.body.id)).statusCode).toBe(200);
    await drain();
    const otherKey = (await row(other.body.id)).mediaPath as string;
    expect((await kit.api('DELETE', `/schedules/${other.body.id}`)).status).toBe(204);
    expect(await exists(otherKey)).toBe(true);
  });

  it('puts back, uncounted and a few minutes later, the schedules of a plan without useSchedules', async () => {
    const lite = kit.t.demo.companies.lite;
    const [contact] = await kit
      .knex('contacts')
      .insert({ companyId: lite, name: 'Pessoa Lite', number: numbers(1, '55478')[0], channel: 'whatsapp' })
      .returning('id');
    const now = clock.now();
    const [schedule] = await kit
      .knex('schedules')
      .insert({ companyId: lite, body: 'Sem plano', sendAt: now, dueAt: now, contactId: contact.id })
      .returning('id');
    const passes = async () => {
      for (let i = 0; i < 3; i++) await kit.dispatcher.runOnce();
    };
    await passes();
    const waiting = await row(schedule.id);
    expect(waiting).toMatchObject({ status: 'PENDENTE', attempts: 0, leaseToken: null, leaseUntil: null });
    expect(new Date(waiting.dueAt).getTime()).toBe(now.getTime() + PLAN_OFF_WAIT_MS);
    clock.advance(PLAN_OFF_WAIT_MS + 1_000);
    await passes();
    expect(await row(schedule.id)).toMatchObject({ status: 'PENDENTE', attempts: 0, leaseToken: null });
    await kit.knex('schedules').where({ id: schedule.id }).delete();
  });

  it('keeps a monthly schedule of the 31st on the 31st after a short month', async () => {
    const [number] = numbers(1, '55479');
    const [contactId] = await kit.contacts([number as string]);
    const first = new Date(new Date().getFullYear() + 1, 0, 31, 9);
    const created = await kit.api('POST', '/schedules', {
      body: 'Todo dia 31',
      sendAt: first.toISOString(),
      contactId,
      intervalo: 3,
      valorIntervalo: 1,
      enviarQuantasVezes: 3,
    });
    const id = created.body.id as number;
    clock.set(new Date(first.getTime() + 1_000));
    await drain();
    const february = new Date((await row(id)).sendAt);
    expect([february.getMonth(), february.getDate()]).toEqual([1, new Date(first.getFullYear(), 2, 0).getDate()]);
    clock.set(new Date(february.getTime() + 1_000));
    await drain();
    const march = new Date((await row(id)).sendAt);
    expect([march.getMonth(), march.getDate(), march.getHours()]).toEqual([2, 31, 9]);
    expect(kit.provider.perRecipient().get(number as string)).toBe(2);
  });
});
