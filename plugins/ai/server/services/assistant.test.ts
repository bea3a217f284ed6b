import { runInTenant } from '@balcao/plugin-sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDOVER_MARKER } from '../../shared/voices';
import { type AiKit, aiKit, until } from '../testing/kit';

/**
 * The assistant at work (docs/ai.md), the real `openai` client against the local stand-in provider: it
 * answers with the prompt and the last maxMessages messages, hands over on the marker, on a request for a
 * person, on the monthly cap and on every provider failure (401, 429 past its retries, 500, a timeout, a
 * 2 MB answer), stops once an agent accepts, and counts tokens; transcription of a visible audio message.
 */
let kit: AiKit;
beforeAll(async () => {
  kit = await aiKit({ AI_HTTP_TIMEOUT_MS: '800', AI_MAX_RETRY_AFTER_SECONDS: '1' });
}, 120_000);
afterAll(() => kit?.close());

const PROMPT_TEXT = 'Você é o assistente da loja Acme e responde perguntas sobre entregas.';

/** A queue with a prompt whose provider key is `apiKey` (the stand-in's error modes). */
async function promptedQueue(name: string, apiKey = 'sk-good', extra: object = {}) {
  const queueId = await kit.queue(name);
  const prompt = await kit.api('POST', '/prompt', {
    name,
    prompt: PROMPT_TEXT,
    queueId,
    apiKey,
    baseUrl: kit.standIn.url,
    model: 'test-model',
    ...extra,
  });
  expect(prompt.status).toBe(200);
  return { queueId, promptId: prompt.body.id as number };
}

/** A customer's ticket waiting in `queueId` (pending, no agent). */
async function waitingTicket(from: string, queueId: number) {
  const first = await kit.say(from, 'oi');
  await putInQueue(first.ticketId, queueId);
  // the inbox's own queue menu answered the first message: the assistant's texts come after it
  const last = await kit.knex('messages').where({ ticketId: first.ticketId }).max('id as id').first();
  answeredAfter.set(first.ticketId, Number(last?.id ?? 0));
  return first.ticketId;
}

async function putInQueue(ticketId: number, queueId: number) {
  await runInTenant({ companyId: kit.acme }, () =>
    kit.inbox.applyTicketChange({ ticketId, queueId, status: 'pending', userId: null }),
  );
}

const answeredAfter = new Map<number, number>();
const botTexts = (ticketId: number) =>
  kit
    .knex('messages')
    .where({ companyId: kit.acme, ticketId, fromMe: true })
    .where('id', '>', answeredAfter.get(ticketId) ?? 0)
    .orderBy('id')
    .pluck('body') as Promise<string[]>;
const stateOf = (ticketId: number) => kit.knex('aiTicketStates').where({ ticketId }).first();

describe('the assistant', () => {
  it('answers a waiting ticket with the prompt and the last maxMessages messages, as the bot, and counts tokens', async () => {
    const { queueId, promptId } = await promptedQueue('Entregas', 'sk-good', { maxMessages: 3, temperature: 0.2, maxTokens: 55 });
    const ticketId = await waitingTicket('ana', queueId);
    await kit.say('ana', 'primeira');
    await until(async () => (await botTexts(ticketId)).length === 1);
    const before = kit.standIn.chats.length;
    const asked = Date.now();
    await kit.say('ana', 'qual o prazo de entrega?');
    const texts = await until(async () => ((await botTexts(ticketId)).length === 2 ? botTexts(ticketId) : null));
    expect(texts[1]).toBe('Assistente: recebi "qual o prazo de entrega?".');
    const chat = kit.standIn.chats[before];
    expect(chat?.body).toMatchObject({ model: 'test-model', temperature: 0.2, max_tokens: 55 });
    expect(chat?.body.messages[0]).toMatchObject({ role: 'system' });
    expect(chat?.body.messages[0]?.content).toContain(PROMPT_TEXT);
    expect(chat?.body.messages[0]?.content).toContain(HANDOVER_MARKER);
    expect(chat?.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'primeira' },
      { role: 'assistant', content: 'Assistente: recebi "primeira".' },
      { role: 'user', content: 'qual o prazo de entrega?' },
    ]);
    const sent = await until(async () => kit.delivered.find((d) => d.body === texts[1] && d.at >= asked));
    expect(sent.at - asked).toBeLessThan(5_000);
    const message = await kit.knex('messages').where({ ticketId, body: texts[1] }).first('userId', 'fromMe');
    expect(message).toMatchObject({ userId: null, fromMe: true });
    const usage = await kit.api('GET', '/prompt-usage');
    const row = usage.body.days.find((d: { promptId: number }) => d.promptId === promptId);
    expect(row).toMatchObject({ requests: 2 });
    expect(row.tokensIn).toBeGreaterThan(0);
    expect(row.tokensOut).toBeGreaterThan(0);
  });

  it('hands over on the marker and when the customer asks for a person, then stays quiet', async () => {
    const { queueId } = await promptedQueue('Trocas');
    const marked = await waitingTicket('bia', queueId);
    await kit.say('bia', 'tenho um assunto delicado');
    await until(async () => (await stateOf(marked))?.handedOverAt);
    expect(await botTexts(marked)).toEqual(['Vou chamar uma pessoa da equipe.']);
    expect((await stateOf(marked)).handoverReason).toBe('assistant handed over');

    const asking = await waitingTicket('caio', queueId);
    const chats = kit.standIn.chats.length;
    await kit.say('caio', 'quero falar com um atendente');
    await until(async () => (await stateOf(asking))?.handedOverAt);
    expect(kit.standIn.chats.length).toBe(chats);
    await kit.say('caio', 'alô?');
    await kit.say('bia', 'alô?');
    // both turns ran (and chose to stay quiet) before the answers are read
    await kit.answersDrained();
    expect(await botTexts(asking)).toEqual([]);
    expect(await botTexts(marked)).toEqual(['Vou chamar uma pessoa da equipe.']);
    expect(kit.standIn.chats.length).toBe(chats);
  });

  it('stops when an agent accepts the ticket', async () => {
    const { queueId } = await promptedQueue('Aceite');
    const ticketId = await waitingTicket('dani', queueId);
    await kit.say('dani', 'olá');
    await until(async () => (await botTexts(ticketId)).length === 1);
    const agent = await kit.knex('users').where({ companyId: kit.acme, email: 'agent@acme.test' }).first('id');
    await runInTenant({ companyId: kit.acme }, () => kit.inbox.applyTicketChange({ ticketId, status: 'open', userId: agent.id }));
    await until(async () => (await stateOf(ticketId))?.handoverReason === 'agent accepted');
    // the ticket comes back to the queue unassigned: the hand-over, not the ticket's state, keeps the assistant quiet
    await runInTenant({ companyId: kit.acme }, () => kit.inbox.applyTicketChange({ ticketId, status: 'pending', userId: null }));
    const chats = kit.standIn.chats.length;
    await kit.say('dani', 'ainda aí?');
    await kit.answersDrained();
    expect(await botTexts(ticketId)).toHaveLength(1);
    expect(kit.standIn.chats.length).toBe(chats);
  });

  it.each([
    ['sk-401', 'status 401'],
    ['sk-429', 'status 429'],
    ['sk-500', 'status 500'],
    ['sk-timeout', 'timeout'],
    ['sk-huge', 'too-large'],
  ])(
    'hands the ticket to people when the provider fails (%s), keeping the message',
    async (apiKey, reason) => {
      const { queueId } = await promptedQueue(`Falha ${apiKey}`, apiKey);
      const ticketId = await waitingTicket(`falha-${apiKey}`, queueId);
      const said = await kit.say(`falha-${apiKey}`, 'preciso de ajuda');
      const state = await until(async () => ((await stateOf(ticketId))?.handedOverAt ? stateOf(ticketId) : null), 15_000);
      expect(state.handoverReason).toBe(`provider failed: ${reason}`);
      expect(await kit.knex('messages').where({ id: said.messageId }).first('body')).toEqual({ body: 'preciso de ajuda' });
      expect(await botTexts(ticketId)).toEqual([]);
      const ticket = await kit.knex('tickets').where({ id: ticketId }).first('status', 'userId', 'queueId');
      expect(ticket).toEqual({ status: 'pending', userId: null, queueId });
    },
    20_000,
  );

  it('holds no transaction open while the provider thinks: a lease row keeps the ticket to one turn', async () => {
    const { queueId } = await promptedQueue('Lenta', 'sk-timeout');
    const ticketId = await waitingTicket('lia', queueId);
    const hanging = kit.standIn.unanswered.length;
    await kit.say('lia', 'alguém aí?');
    // the provider has the request and sits on it (up to the 800 ms deadline)
    await until(async () => kit.standIn.unanswered.length > hanging);
    const lease = await kit.knex('aiTurnLeases').where({ ticketId }).first('companyId', 'expiresAt');
    expect(lease?.companyId).toBe(kit.acme);
    expect(new Date(lease.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const open = await kit.knex.raw(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
    );
    expect(open.rows[0].n).toBe(0);
    await until(async () => (await stateOf(ticketId))?.handedOverAt);
    await kit.answersDrained();
    expect(await kit.knex('aiTurnLeases').where({ ticketId }).first()).toBeUndefined();
  });

  it('hands over instead of asking once the monthly cap is spent', async () => {
    const { queueId } = await promptedQueue('Teto');
    await kit.api('PUT', '/prompt-usage/cap', { monthlyTokenCap: 1 });
    try {
      const ticketId = await waitingTicket('eva', queueId);
      const chats = kit.standIn.chats.length;
      await kit.say('eva', 'olá');
      await until(async () => (await stateOf(ticketId))?.handedOverAt);
      expect((await stateOf(ticketId)).handoverReason).toBe('monthly token cap reached');
      expect(kit.standIn.chats.length).toBe(chats);
    } finally {
      await kit.api('PUT', '/prompt-usage/cap', { monthlyTokenCap: null });
    }
  });

  it("answers with a voice note in the prompt's voice through the speech adapter", async () => {
    const { queueId } = await promptedQueue('Voz', 'sk-good', {
      voice: 'pt-BR-FranciscaNeural',
      voiceKey: 'vk-speech',
      voiceRegion: 'brazilsouth',
    });
    const ticketId = await waitingTicket('hugo', queueId);
    await kit.say('hugo', 'qual o endereço?');
    const sent = await until(async () =>
      kit
        .knex('messages')
        .where({ ticketId, fromMe: true, mediaType: 'audio' })
        .where('id', '>', answeredAfter.get(ticketId) ?? 0)
        .first('mediaPath'),
    );
    expect(sent.mediaPath).toMatch(new RegExp(`^media/${ticketId}/ai-\\d+\\.ogg$`));
    const speech = kit.standIn.speeches.at(-1);
    expect(speech?.voice).toBe('pt-BR-FranciscaNeural');
    expect(speech?.text).toContain('recebi &quot;qual o endereço?&quot;');
  });

  it('leaves tickets of queues without a prompt alone', async () => {
    const queueId = await kit.queue('Sem IA');
    const ticketId = await waitingTicket('fabi', queueId);
    const chats = kit.standIn.chats.length;
    await kit.say('fabi', 'olá');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(kit.standIn.chats.length).toBe(chats);
    expect(await stateOf(ticketId)).toBeUndefined();
  });
});

describe('the ai service', () => {
  it("answers with a company's prompt through its provider, counts the tokens, and refuses other prompts", async () => {
    const { promptId } = await promptedQueue('Serviço', 'sk-good', { temperature: 0.3, maxTokens: 40 });
    const ai = kit.t.balcao.core.services.use('ai');
    const before = kit.standIn.chats.length;
    const answer = await ai.complete(kit.acme, { promptId, messages: [{ role: 'user', content: 'qual o horário?' }] });
    expect(answer).toEqual({ text: 'Assistente: recebi "qual o horário?".', handOver: false });
    expect(kit.standIn.chats[before]?.body).toMatchObject({ model: 'test-model', temperature: 0.3, max_tokens: 40 });
    expect(kit.standIn.chats[before]?.body.messages[0]).toMatchObject({ role: 'system' });
    expect(kit.standIn.chats[before]?.body.messages[0]?.content.startsWith(`${PROMPT_TEXT}\n\n`)).toBe(true);
    const usage = await kit.api('GET', '/prompt-usage');
    expect(usage.body.days.find((d: { promptId: number }) => d.promptId === promptId)).toMatchObject({ requests: 1 });
    const other = kit.t.demo.companies.lite as number;
    await expect(ai.complete(other, { promptId, messages: [] })).rejects.toMatchObject({ code: 'ERR_NO_PROMPT_FOUND' });
    const failing = await promptedQueue('Serviço falho', 'sk-500');
    await expect(ai.complete(kit.acme, { promptId: failing.promptId, messages: [] })).rejects.toMatchObject({
      code: 'ERR_AI_PROVIDER_FAILED',
    });
  });

  it('answers with inline settings and a sealed key, counted apart from the prompts, and says when to hand over', async () => {
    const ai = kit.t.balcao.core.services.use('ai');
    const sealed = ai.sealKey('sk-inline-1234');
    expect(sealed).not.toContain('sk-inline');
    expect(ai.maskKey(sealed)).toBe('••••••1234');
    expect(ai.maskKey('v1.not.a.key')).toBe('••••••');
    const before = kit.standIn.chats.length;
    const settings = {
      prompt: 'Você é o robô do fluxo.',
      apiKeySealed: sealed,
      maxTokens: 55,
      temperature: 0.7,
      baseUrl: kit.standIn.url,
    };
    const answer = await ai.complete(kit.acme, { settings, messages: [{ role: 'user', content: 'um assunto delicado' }] });
    expect(answer).toEqual({ text: 'Vou chamar uma pessoa da equipe.', handOver: true });
    expect(kit.standIn.chats[before]).toMatchObject({
      apiKey: 'sk-inline-1234',
      body: { model: 'gpt-4o-mini', temperature: 0.7, max_tokens: 55 },
    });
    const usage = await kit.api('GET', '/prompt-usage');
    expect(usage.body.days.find((d: { promptId: number }) => d.promptId === 0)).toMatchObject({ requests: 1 });
    await expect(
      ai.complete(kit.acme, { settings: { ...settings, apiKeySealed: 'v1.a.b.c' }, messages: [] }),
    ).rejects.toMatchObject({ code: 'ERR_AI_PROVIDER_FAILED' });
  });
});

describe('transcription', () => {
  it('transcribes an audio message the caller may see, and nothing else', async () => {
    const { queueId } = await promptedQueue('Áudio');
    const ticketId = await waitingTicket('gil', queueId);
    const stored = await kit.t.balcao.core.storage.put(
      kit.acme,
      `media/${ticketId}/abc123-voz.ogg`,
      Buffer.from('OggS audio bytes'),
    );
    const ticket = await kit.knex('tickets').where({ id: ticketId }).first('contactId');
    await kit.knex('messages').insert({
      companyId: kit.acme,
      ticketId,
      contactId: ticket.contactId,
      body: '',
      fromMe: false,
      mediaType: 'audio',
      mediaPath: stored.key,
      mediaName: 'voz.ogg',
    });
    const answer = await kit.api('GET', '/messages/transcribeAudio/abc123-voz.ogg');
    expect(answer).toEqual({ status: 200, body: { transcribedText: 'Olá, eu gostaria de saber o horário de funcionamento.' } });
    expect(kit.standIn.transcriptions.at(-1)?.bytes).toBeGreaterThan(16);
    // as the ticket view asks: by the last part of the message's signed media address
    const address = kit.t.balcao.core.storage.signedUrl(kit.acme, stored.key, { fileName: 'voz.ogg' });
    const token = address.split('/').pop() as string;
    expect((await kit.api('GET', `/messages/transcribeAudio/${token}`)).body).toEqual({
      transcribedText: 'Olá, eu gostaria de saber o horário de funcionamento.',
    });
    expect(await kit.api('GET', '/messages/transcribeAudio/nada-disso.ogg')).toEqual({
      status: 404,
      body: { error: 'ERR_NO_AUDIO_FOUND' },
    });
    // the agent doesn't belong to this queue: the ticket is not theirs to see
    const agent = await kit.t.login('agent@acme.test');
    expect(await kit.api('GET', '/messages/transcribeAudio/abc123-voz.ogg', undefined, agent.token)).toEqual({
      status: 404,
      body: { error: 'ERR_NO_AUDIO_FOUND' },
    });

    // a provider that refuses: a 424 (the provider failed, not us) the modal shows, never a 5xx
    const failing = await promptedQueue('Áudio falho', 'sk-500');
    await kit.knex('tickets').where({ id: ticketId }).update({ queueId: failing.queueId });
    expect(await kit.api('GET', '/messages/transcribeAudio/abc123-voz.ogg')).toEqual({
      status: 424,
      body: { error: 'ERR_TRANSCRIPTION_FAILED' },
    });
  });
});
