import { type PluginDefinition, runInTenant } from '@balcao/plugin-sdk/server';
import type { AiContext } from '../config';
import { Prompt } from '../models';
import { ensureStandIn } from '../services/demo';
import { seal, secretsKey } from '../services/secrets';

/**
 * The walkers' rows of company A, each carrying the marker: a prompt on A's queue (answering through a
 * stand-in provider, so that A's transcription read succeeds), a second queue without a prompt (for
 * POST /prompt) and an audio message on A's ticket with its stored file.
 */
export const seedAiFixtures: NonNullable<NonNullable<PluginDefinition['seed']>['fixtures']> = async ({
  ctx: rawCtx,
  companyA,
  marker,
  seededA,
}) => {
  const ctx = rawCtx as AiContext;
  const baseUrl = await ensureStandIn(ctx);
  const knex = ctx.db.knex;
  const companyId = companyA.id;
  const [freeQueue] = await knex('queues')
    .insert({
      companyId,
      name: `IA ${marker}`.slice(0, 50),
      color: `#${Math.floor(Math.random() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}`,
    })
    .returning('id');
  const fileName = `ai-fixture-${Date.now().toString(36)}.ogg`;
  const stored = await ctx.storage.put(companyId, `media/ai/${fileName}`, Buffer.from('OggS fixture audio'));
  const ticket = await knex('tickets')
    .where({ id: Number(seededA.ticket), companyId })
    .first('id', 'contactId');
  await knex('messages').insert({
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    body: `audio ${marker}`,
    fromMe: false,
    mediaType: 'audio',
    mediaPath: stored.key,
    mediaName: 'voz.ogg',
  });
  const prompt = await runInTenant({ companyId }, () =>
    Prompt.query().insert({
      name: `Assistente ${marker}`.slice(0, 100),
      prompt: `Você é o assistente da loja ${marker}.`,
      queueId: Number(seededA.queue),
      apiKeySealed: seal(secretsKey(ctx), 'sk-fixture'),
      baseUrl,
    }),
  );
  return {
    prompt: prompt.id,
    promptQueue: Number(seededA.queue),
    freeQueue: Number((freeQueue as { id: number }).id ?? freeQueue),
    audioFile: fileName,
  };
};
