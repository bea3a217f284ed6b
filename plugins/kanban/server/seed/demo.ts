import { runInTenant } from '@balcao/plugin-sdk/server';
import type { KanbanContext } from '../config';
import { DEMO_EMBED_KEY } from '../demo/constants';
import { EmbedKey } from '../models/embed-key';
import { Lane, TicketTagLink } from '../models/lane';

/** Lanes the demo adds to the inbox's two (Em negociação, Proposta enviada), with automation. */
const LANES = [
  { name: 'Novo lead', color: '#1677FF' },
  {
    name: 'Aguardando cliente',
    color: '#FAAD14',
    timeLane: 1_440,
    next: 'Follow-up',
    rollback: 'Em negociação',
    greetingMessageLane: 'Olá! Ficamos no aguardo do seu retorno para seguir com o atendimento.',
  },
  { name: 'Follow-up', color: '#EB2F96', greetingMessageLane: 'Oi! Passando para saber se ainda podemos ajudar.' },
  { name: 'Fechado', color: '#52C41A' },
] as const;

/** Acme's lanes with automation, some tickets on them, and the demo page's embed key (idempotent). */
export async function seedKanbanDemo(ctx: KanbanContext, demo: { companies: Record<string, number> }): Promise<void> {
  const companyId = demo.companies.acme;
  if (!companyId) return;
  await runInTenant({ companyId }, async () => {
    const byName = new Map<string, number>();
    for (const lane of await Lane.lanes().select('id', 'name')) byName.set(lane.name, lane.id);
    for (const lane of LANES) {
      if (!byName.has(lane.name)) {
        const row = await Lane.query().insert({ name: lane.name, color: lane.color, kanban: 1 });
        byName.set(lane.name, row.id);
      }
    }
    for (const lane of LANES) {
      if (!('timeLane' in lane) && !('greetingMessageLane' in lane)) continue;
      await Lane.query()
        .patch({
          timeLane: 'timeLane' in lane ? lane.timeLane : null,
          nextLaneId: 'next' in lane ? (byName.get(lane.next) ?? null) : null,
          rollbackLaneId: 'rollback' in lane ? (byName.get(lane.rollback) ?? null) : null,
          greetingMessageLane: lane.greetingMessageLane,
        })
        .where('id', byName.get(lane.name) as number);
    }
    // spread some lane-less open tickets over the new lanes (once: only tickets on no lane yet)
    const laneIds = LANES.map((lane) => byName.get(lane.name) as number);
    const free = await Lane.knex()
      .from('tickets as t')
      .where('t.companyId', companyId)
      .whereIn('t.status', ['open', 'pending'])
      .whereNotExists(
        Lane.knex()
          .from('ticketTags as tt')
          .join('tags as g', 'g.id', 'tt.tagId')
          .whereRaw('tt.ticket_id = t.id')
          .where('g.kanban', 1),
      )
      .orderBy('t.id')
      .limit(8)
      .select('t.id');
    if (free.length > 0 && (await TicketTagLink.query().whereIn('tagId', laneIds).resultSize()) === 0) {
      await TicketTagLink.query().insert(
        free.map((row: { id: number }, index: number) => ({ ticketId: row.id, tagId: laneIds[index % laneIds.length] })),
      );
    }
    if (!(await EmbedKey.query().findOne({ key: DEMO_EMBED_KEY }))) {
      await EmbedKey.query().insert({
        name: 'Site de demonstração',
        key: DEMO_EMBED_KEY,
        secret: 'demo-secret-change-me',
        allowedOrigins: [`http://localhost:${ctx.config.KANBAN_DEMO_PORT}`, `http://127.0.0.1:${ctx.config.KANBAN_DEMO_PORT}`],
        mayMove: true,
        signedUsers: false,
        laneIds: null,
      });
    }
  });
}
