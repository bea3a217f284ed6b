import {
  AppError,
  type BalcaoEvents,
  type FlowStartQuery,
  isAppError,
  keepLeaseAhead,
  leaseToken,
  systemClock,
} from '@balcao/plugin-sdk/server';
import {
  type ConditionNodeData,
  type FlowDocument,
  type FlowNode,
  type FlowVariables,
  interpolate,
  nextNodeId,
  startNode,
} from '../../shared/flow-document';
import type { FlowbuilderContext } from '../config';
import { askTypebot } from './clients/typebot';
import { sanitizeAnswer } from './clients/types';
import { integrationHttp } from './http';
import { failureReason } from './runner';

/**
 * The flow runtime (docs/product/automation.md "Flows at work"). A run belongs to one ticket; its node,
 * variables and waiting state are a `flowRuns` row, so any worker process carries it on. The receive path
 * only enqueues a `flow-step` job; the job walks the flow under a per-ticket lease row, one node at a
 * time, each step committed to the row. Every message a step sends is named by the run's step
 * (`automation` = `flow:<flowId>:<nodeId>:<step>[:<part>]`) and looked up before sending, so a step
 * repeated after a crash sends nothing twice. A run waiting on an interval keeps its `dueAt`; a `flow-due`
 * job per quarter second of due times claims the company's due runs in batches, not a job per run.
 */

export const FLOW_STEP_JOB = 'flow-step';
export const FLOW_SWEEP_JOB = 'flow-sweep';
export const FLOW_DUE_JOB = 'flow-due';
/** Due times share a `flow-due` job per this many milliseconds: a thousand runs due in one second make four jobs. */
const DUE_BUCKET_MS = 250;
/** Runs one claim statement takes (each then a turn of its own, under the claim's one lease token). */
const DUE_BATCH = 100;
/** Claimed runs a `flow-due` job walks at once: with the `flow-step` jobs' 6, below the pool's 10 connections. */
const DUE_PARALLEL = 3;
/** An interval this late (its `flow-due` job lost with Redis, say) is claimed by the sweeper's schedule. */
const DUE_LATE_MS = 10_000;
/** A run left `running` this long by a process that died is carried on by the sweeper. */
export const STALE_RUN_MS = 30_000;
/** Guards a flow whose nodes lead back to each other without waiting. */
const MAX_STEPS_PER_TURN = 200;
/** A ticket's turn lease: renewed every third of it while the turn runs; a dead process's runs out. */
export const TURN_LEASE_MS = 30_000;
/** The longest a turn waits for its ticket's lease: past a dead holder's lease, with room to spare. */
const TURN_WAIT_MS = 2 * TURN_LEASE_MS;
/** Jobs a process runs at once: below the pool's 10 connections, so the turns' queries always get one. */
export const FLOW_STEP_CONCURRENCY = 6;

type RunStatus = 'running' | 'waiting' | 'paused' | 'done' | 'stopped' | 'failed';
const ACTIVE: readonly RunStatus[] = ['running', 'waiting', 'paused'];

interface RunRow {
  ticketId: number;
  companyId: number;
  flowId: number;
  nodeId: string;
  elementIndex: number;
  status: RunStatus;
  waitingFor: 'answer' | 'interval' | 'typebot' | 'openai' | null;
  step: number;
  variables: FlowVariables;
  attempts: number;
  askedAt: Date | null;
  dueAt?: Date | string | null;
  lastMessageId: string | number | null;
  typebotSessionId: string | null;
}

interface TicketRow {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  contactId: number;
  isGroup: boolean;
  useIntegration: boolean;
  integrationId: number | null;
}

/** What moves a run: a customer message, a due interval, or a resume (sweeper, toggle). */
export type StepInput =
  | { kind: 'message'; messageId: number; ticketCreated: boolean; body?: string }
  | { kind: 'interval'; step: number }
  | { kind: 'resume' };

/**
 * The receive path's part (`message.received`): one indexed query, then a job when the ticket is in a
 * flow or its connection has a trigger. Everything else happens in the job.
 */
export async function onMessageReceived(ctx: FlowbuilderContext, payload: BalcaoEvents['message.received']): Promise<void> {
  if (payload.fromMe || payload.ticket.isGroup || payload.ticket.userId !== null || payload.ticket.status !== 'pending') return;
  const row = await ctx.db
    .knex('whatsapps as w')
    .where({ 'w.id': payload.whatsappId, 'w.companyId': payload.companyId })
    .first(
      'w.flowIdWelcome',
      'w.flowIdNotPhrase',
      ctx.db.knex.raw(`${INTEGRATION_FLOW_SQL} AS integration_flow_id`),
      ctx.db.knex.raw('(SELECT status FROM flow_runs WHERE ticket_id = ?) AS run_status', [payload.ticketId]),
      ctx.db.knex.raw(
        'EXISTS (SELECT 1 FROM flow_campaigns c WHERE c.company_id = w.company_id AND c.whatsapp_id = w.id AND c.status) AS has_phrases',
      ),
    );
  if (!row) return;
  const inRun = row.runStatus !== null && (ACTIVE as readonly string[]).includes(row.runStatus);
  const triggers =
    row.hasPhrases ||
    (payload.ticketCreated && (row.flowIdWelcome !== null || row.flowIdNotPhrase !== null || row.integrationFlowId !== null));
  if (!inRun && !triggers) return;
  await ctx.jobs.enqueue(
    FLOW_STEP_JOB,
    // the text rides with the job: the turn reads no message row for it
    {
      ticketId: payload.ticketId,
      kind: 'message',
      messageId: payload.messageId,
      ticketCreated: payload.ticketCreated,
      body: payload.body,
    },
    { jobId: `flow-msg-${payload.ticketId}-${payload.messageId}` },
  );
}

/**
 * An agent took the ticket (accepted, or it was closed): its run stops. A ticket back to pending from
 * waiting for the contact's LGPD consent (the contact accepted) gets the turn its first message would have
 * had, had consent not been pending: the welcome or not-phrase flow starts on the acceptance.
 */
export async function onTicketUpdated(ctx: FlowbuilderContext, payload: BalcaoEvents['ticket.updated']): Promise<void> {
  if (payload.userId === null && payload.status === 'pending') {
    if (payload.previousStatus === 'lgpd' && !payload.isGroup && payload.whatsappId !== null) await onConsent(ctx, payload);
    return;
  }
  await ctx.db
    .knex('flowRuns')
    .where({ ticketId: payload.ticketId, companyId: payload.companyId })
    .whereIn('status', ACTIVE as RunStatus[])
    .update({
      status: 'stopped',
      waitingFor: null,
      endReason: payload.userId !== null ? 'accepted' : payload.status,
      updatedAt: new Date(),
    });
}

/** The contact's acceptance (its latest message) starts what the ticket's first message would have. */
async function onConsent(ctx: FlowbuilderContext, payload: BalcaoEvents['ticket.updated']): Promise<void> {
  const message = await ctx.db
    .knex('messages')
    .where({ companyId: payload.companyId, ticketId: payload.ticketId, fromMe: false })
    .orderBy('id', 'desc')
    .first('id');
  if (!message) return;
  await ctx.jobs.enqueue(
    FLOW_STEP_JOB,
    { ticketId: payload.ticketId, kind: 'message', messageId: Number(message.id), ticketCreated: true },
    { jobId: `flow-consent-${payload.ticketId}-${message.id}` },
  );
}

/**
 * The `flow-step` job: one turn of a ticket's run, one ticket's turns at a time. The turn holds a lease row
 * (`flowTurnLeases`), not a lock on a pooled connection: a turn waiting for its ticket keeps no connection
 * idle (ten waiting turns on the pool of 10 would starve the holder's queries), and a Typebot call runs
 * with no transaction open.
 */
export async function flowStep(ctx: FlowbuilderContext, companyId: number, ticketId: number, input: StepInput): Promise<void> {
  const token = leaseToken();
  await takeTurnLease(ctx, ticketId, token);
  const renewal = keepLeaseAhead({
    leaseMs: TURN_LEASE_MS,
    clock: systemClock,
    renew: (leaseUntil) => ctx.db.knex('flowTurnLeases').where({ ticketId, token }).update({ leaseUntil }),
    onError: (error) => ctx.log.warn({ err: error, ticketId }, 'flow turn lease renewal failed'),
  });
  try {
    await turn(ctx, companyId, ticketId, input);
  } finally {
    await renewal.stop();
    await ctx.db.knex('flowTurnLeases').where({ ticketId, token }).delete();
  }
}

/** Takes the ticket's turn lease, waiting (with no connection held) while another turn has it. */
async function takeTurnLease(ctx: FlowbuilderContext, ticketId: number, token: string): Promise<void> {
  const deadline = Date.now() + TURN_WAIT_MS;
  for (let waitMs = 10; ; waitMs = Math.min(250, waitMs * 2)) {
    const taken = (await ctx.db.knex.raw(
      `INSERT INTO flow_turn_leases (ticket_id, token, lease_until) VALUES (?, ?, now() + ? * interval '1 millisecond')
       ON CONFLICT (ticket_id) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until
       WHERE flow_turn_leases.lease_until < now()
       RETURNING token`,
      [ticketId, token, TURN_LEASE_MS],
    )) as { rows: unknown[] };
    if (taken.rows.length > 0) return;
    if (Date.now() > deadline) throw new Error(`flow turn of ticket ${ticketId}: its lease stayed taken`);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/**
 * The sweeper: runs left mid-walk by a process that died go on (a job per run, idempotent by step). A run
 * of a company whose plan lost the flow builder stops instead (no job of the plugin may be enqueued for it),
 * and a run that cannot be enqueued is logged and left for the next sweep: one company never holds up
 * another's recovery.
 */
export async function sweepStaleRuns(ctx: FlowbuilderContext): Promise<number> {
  const stale: Array<{ ticketId: number; companyId: number; step: number }> = await ctx.db
    .knex('flowRuns')
    .where('status', 'running')
    .where('updatedAt', '<', new Date(Date.now() - STALE_RUN_MS))
    .orderBy('updatedAt')
    .limit(500)
    .select('ticketId', 'companyId', 'step');
  // intervals long past due whose `flow-due` job never ran (lost with Redis, say): a job for each company
  const late: Array<{ companyId: number }> = await ctx.db
    .knex('flowRuns')
    .where({ status: 'waiting', waitingFor: 'interval' })
    .where('dueAt', '<', new Date(Date.now() - DUE_LATE_MS))
    .distinct('companyId')
    .limit(500);
  let resumed = 0;
  for (const { companyId } of late) {
    try {
      if (await ctx.plans.has(companyId, 'useIntegrations')) await scheduleDue(ctx, companyId, Date.now());
    } catch (error) {
      ctx.log.warn({ err: error, companyId }, 'late flow intervals not scheduled');
    }
  }
  for (const run of stale) {
    try {
      if (!(await ctx.plans.has(run.companyId, 'useIntegrations'))) {
        await ctx.db
          .knex('flowRuns')
          .where({ ticketId: run.ticketId, companyId: run.companyId, status: 'running' })
          .update({ status: 'stopped', waitingFor: null, endReason: 'plan', updatedAt: new Date() });
        continue;
      }
      await ctx.jobs.enqueue(
        FLOW_STEP_JOB,
        { ticketId: run.ticketId, kind: 'resume' },
        { companyId: run.companyId, jobId: `flow-resume-${run.ticketId}-${run.step}` },
      );
      resumed += 1;
    } catch (error) {
      ctx.log.warn({ err: error, ticketId: run.ticketId, companyId: run.companyId }, 'stale flow run not resumed');
    }
  }
  return resumed;
}

/** The columns a turn reads of its run, named `run_` and then as `RunRow` names them. */
const RUN_COLUMNS = `r.ticket_id AS "run_ticketId", r.company_id AS "run_companyId", r.flow_id AS "run_flowId",
  r.node_id AS "run_nodeId", r.element_index AS "run_elementIndex", r.status AS "run_status",
  r.waiting_for AS "run_waitingFor", r.step AS "run_step", r.variables AS "run_variables", r.attempts AS "run_attempts",
  r.asked_at AS "run_askedAt", r.due_at AS "run_dueAt", r.last_message_id AS "run_lastMessageId",
  r.typebot_session_id AS "run_typebotSessionId"`;

/** The columns a turn reads of its ticket. */
const TICKET_COLUMNS = `t.id, t.status, t.user_id AS "userId", t.queue_id AS "queueId", t.whatsapp_id AS "whatsappId",
  t.contact_id AS "contactId", t.is_group AS "isGroup", t.use_integration AS "useIntegration",
  t.integration_id AS "integrationId"`;

/**
 * A turn's reads in one statement: the ticket, its run and the version of the run's flow (its `updatedAt`
 * while active; null when the flow is gone or inactive), which names the cached document. The lease is
 * taken by a statement of its own before it: a statement's reads see the database as it was when it
 * began, and the previous holder's last writes may commit while a combined statement waits on its lease.
 */
async function loadTurn(
  ctx: FlowbuilderContext,
  companyId: number,
  ticketId: number,
): Promise<{ ticket: TicketRow; run: RunRow | undefined; version: number | null } | undefined> {
  const result = (await ctx.db.knex.raw(
    `SELECT ${TICKET_COLUMNS}, r.ticket_id IS NOT NULL AS "hasRun", f.updated_at AS "flowUpdatedAt",
       ${RUN_COLUMNS}
     FROM tickets t
     LEFT JOIN flow_runs r ON r.ticket_id = t.id AND r.company_id = t.company_id
     LEFT JOIN flow_builders f ON f.id = r.flow_id AND f.company_id = r.company_id AND f.active
     WHERE t.id = ? AND t.company_id = ?`,
    [ticketId, companyId],
  )) as { rows: Array<Record<string, unknown>> };
  const row = result.rows[0];
  if (!row) return undefined;
  const ticket: TicketRow = {
    id: Number(row.id),
    status: String(row.status),
    userId: row.userId as number | null,
    queueId: row.queueId as number | null,
    whatsappId: row.whatsappId as number | null,
    contactId: Number(row.contactId),
    isGroup: row.isGroup === true,
    useIntegration: row.useIntegration === true,
    integrationId: row.integrationId as number | null,
  };
  let run: RunRow | undefined;
  if (row.hasRun === true) {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) if (key.startsWith('run_')) fields[key.slice(4)] = value;
    run = fields as unknown as RunRow;
  }
  const version = row.flowUpdatedAt ? new Date(row.flowUpdatedAt as string).getTime() : null;
  return { ticket, run, version };
}

async function loadTicket(ctx: FlowbuilderContext, companyId: number, ticketId: number): Promise<TicketRow | undefined> {
  return ctx.db
    .knex('tickets')
    .where({ id: ticketId, companyId })
    .first('id', 'status', 'userId', 'queueId', 'whatsappId', 'contactId', 'isGroup', 'useIntegration', 'integrationId');
}

async function loadRun(ctx: FlowbuilderContext, companyId: number, ticketId: number): Promise<RunRow | undefined> {
  return ctx.db.knex('flowRuns').where({ ticketId, companyId }).first();
}

/**
 * Flow documents by flow id, with the company and the version (`updatedAt`) they were read at: a turn that
 * knows its flow's version reads no document that version was already read at. Every writer of a flow's
 * document moves its `updatedAt`, so a saved flow is read again by the next turn.
 */
const documents = new Map<number, { companyId: number; version: number; document: FlowDocument | null }>();
const DOCUMENTS_KEPT = 256;

/** The active flow's document (null when the flow is gone, inactive or malformed); `version` as `loadTurn` read it. */
async function loadDocument(
  ctx: FlowbuilderContext,
  companyId: number,
  flowId: number,
  version: number | null = null,
): Promise<FlowDocument | null> {
  const cached = documents.get(flowId);
  if (version !== null && cached && cached.companyId === companyId && cached.version === version) return cached.document;
  const row = await ctx.db.knex('flowBuilders').where({ id: flowId, companyId, active: true }).first('flow', 'updatedAt');
  if (!row) return null;
  const flow = row.flow as FlowDocument | null | undefined;
  const document = flow && Array.isArray(flow.nodes) && Array.isArray(flow.connections) ? flow : null;
  documents.delete(flowId);
  documents.set(flowId, { companyId, version: new Date(row.updatedAt).getTime(), document });
  if (documents.size > DOCUMENTS_KEPT) documents.delete(documents.keys().next().value as number);
  return document;
}

/** Whether the flow may speak on this ticket now: waiting for people, nobody on it, not a group. */
const open = (ticket: TicketRow) => ticket.status === 'pending' && ticket.userId === null && !ticket.isGroup;

async function turn(ctx: FlowbuilderContext, companyId: number, ticketId: number, input: StepInput): Promise<void> {
  const loaded = await loadTurn(ctx, companyId, ticketId);
  if (!loaded) return;
  const { ticket, version } = loaded;
  let run = loaded.run;
  const active = run !== undefined && (ACTIVE as readonly string[]).includes(run.status);

  if (run && active && !open(ticket)) {
    await patchRun(ctx, run, {
      status: 'stopped',
      waitingFor: null,
      endReason: ticket.userId !== null ? 'accepted' : ticket.status,
    });
    return;
  }
  let document: FlowDocument | null;
  if (input.kind === 'message') {
    if (run && run.lastMessageId !== null && Number(run.lastMessageId) >= input.messageId) return;
    let body = input.body;
    if (body === undefined) {
      // a job enqueued without the text (before it rode with the job) reads it
      const message = await ctx.db
        .knex('messages')
        .where({ id: input.messageId, companyId, ticketId, fromMe: false })
        .first('body');
      if (!message) return;
      body = String(message.body ?? '');
    }
    if (!run || !active) {
      if (!open(ticket) || (ticket.useIntegration && ticket.integrationId !== null)) return;
      const started = await startByTrigger(ctx, companyId, ticket, body, input, run?.step ?? -1);
      if (!started) return;
      ({ run, document } = started);
    } else {
      // the header's integration toggle: off pauses the run (messages pass by), on again resumes it
      if (!ticket.useIntegration) {
        await patchRun(ctx, run, { status: 'paused', lastMessageId: input.messageId });
        return;
      }
      if (run.status === 'paused') {
        run = await patchRun(ctx, run, { status: run.waitingFor ? 'waiting' : 'running' });
        // an interval that fell due while paused found nothing to end: it is due again now (or when it was meant to be)
        if (run.waitingFor === 'interval') await resumeInterval(ctx, run);
      }
      // the message is consumed by the same update that moves the run (answerAt, typebotTurn): a process
      // dying before it leaves the message unconsumed, and its job's retry answers it again
      const consumed = { lastMessageId: input.messageId };
      if (run.waitingFor === 'answer') {
        document = await loadDocument(ctx, companyId, run.flowId, version);
        const moved = await answerAt(ctx, ticket, run, body, consumed, document);
        if (!moved) return;
        run = moved;
      } else if (run.waitingFor === 'typebot') {
        await typebotTurn(ctx, ticket, run, body, consumed, await loadDocument(ctx, companyId, run.flowId, version));
        return;
      } else if (run.waitingFor === 'openai') {
        await openaiTurn(ctx, ticket, run, consumed, await loadDocument(ctx, companyId, run.flowId, version));
        return;
      } else {
        // waiting on an interval (or mid-walk in another job): the message is the conversation's, not the flow's
        await patchRun(ctx, run, consumed);
        return;
      }
    }
  } else if (input.kind === 'interval') {
    // a job of one run's interval, as a run reaching an interval enqueued it before the batched claim
    if (!run || !['waiting', 'paused'].includes(run.status) || run.waitingFor !== 'interval' || run.step !== input.step) return;
    await pastInterval(ctx, ticket, run, version);
    return;
  } else {
    if (run?.status !== 'running') return;
    // claimed from its interval by a process that died before moving it on
    if (run.waitingFor === 'interval') return void (await pastInterval(ctx, ticket, run, version));
    document = await loadDocument(ctx, companyId, run.flowId, version);
  }
  await walk(ctx, ticket, run, document);
}

/**
 * A run whose interval is due goes on: an interval inside a content node with the node's next element, an
 * interval node with its next node. The run is `waiting` on its interval, or `running` with `waitingFor`
 * still `interval` once a claim took it (the mark the sweeper resumes it by). The ticket is open (the
 * caller checked).
 */
async function pastInterval(ctx: FlowbuilderContext, ticket: TicketRow, claimed: RunRow, version: number | null): Promise<void> {
  let run = claimed;
  if (!ticket.useIntegration) return void (await patchRun(ctx, run, { status: 'paused' }));
  const document = await loadDocument(ctx, run.companyId, run.flowId, version);
  if (!document) return void (await end(ctx, ticket, run, 'failed', 'flow gone', { dueAt: null }));
  const node = document.nodes.find((candidate) => candidate.id === run.nodeId);
  if (!node) return void (await end(ctx, ticket, run, 'failed', 'node gone', { dueAt: null }));
  if (node.type === 'singleBlock') {
    run = await patchRun(ctx, run, { status: 'running', waitingFor: null, step: run.step + 1, dueAt: null });
  } else {
    const next = nextNodeId(document, node.id);
    if (next === null) return void (await end(ctx, ticket, run, 'done', 'end', { dueAt: null }));
    run = await moveTo(ctx, run, next, { dueAt: null });
  }
  await walk(ctx, ticket, run, document);
}

/** The flow of the connection's queue integration, when it is a `flowbuilder` one (SQL on `w`, the connection). */
const INTEGRATION_FLOW_SQL = `(SELECT i.flow_id FROM queue_integrations i
  WHERE i.id = w.integration_id AND i.company_id = w.company_id AND i.type = 'flowbuilder')`;

/** A stored date (`YYYY-MM-DD`, or a timestamp) as YYYY-MM-DD; null when unset. */
const dayOf = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null);

/**
 * Whether the ticket's connection is on collective vacation today, as the chatbot reads it: start and end
 * set, both days included, in the server's local date, and a vacation message (the chatbot tells it; without
 * one the dates are left-overs). The business is closed: no flow starts over the chatbot's vacation message.
 */
async function onVacation(ctx: FlowbuilderContext, companyId: number, whatsappId: number, at: Date): Promise<boolean> {
  if (!ctx.services.has('connections')) return false;
  const profile = await ctx.services.use('connections').profile(companyId, whatsappId);
  if (!profile || profile.collectiveVacationMessage.trim() === '') return false;
  const start = dayOf(profile.collectiveVacationStart);
  const end = dayOf(profile.collectiveVacationEnd);
  if (!start || !end) return false;
  const pad = (value: number) => String(value).padStart(2, '0');
  const today = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return start <= today && today <= end;
}

/**
 * The flow a customer's message starts (docs/product/automation.md "Flows at work"), with its document
 * and start node: an active phrase campaign of the connection whose phrase the message contains (case and
 * accents aside); else, on a new ticket's first message, the connection's welcome flow for a contact never
 * seen before, or its not-phrase flow; else the flow of the connection's `flowbuilder` integration. None
 * while the company's plan lacks the flow builder, while the connection is on collective vacation (the
 * chatbot's vacation message wins), nor while the contact's consent is still to be asked (the chatbot asks
 * it first; the acceptance then counts as the first message).
 */
async function triggeredFlow(
  ctx: FlowbuilderContext,
  companyId: number,
  ticket: TicketRow,
  body: string,
  ticketCreated: boolean,
): Promise<{ flowId: number; document: FlowDocument; start: FlowNode } | null> {
  if (ticket.whatsappId === null) return null;
  // a company whose plan lost the flow builder keeps its rows, but no flow starts
  if (!(await ctx.plans.has(companyId, 'useIntegrations'))) return null;
  const campaigns: Array<{ flowId: number; phrase: string }> = await ctx.db
    .knex('flowCampaigns')
    .where({ companyId, whatsappId: ticket.whatsappId, status: true })
    .orderBy('id')
    .select('flowId', 'phrase');
  const said = fold(body);
  let flowId: number | null =
    campaigns.find((campaign) => fold(campaign.phrase) !== '' && said.includes(fold(campaign.phrase)))?.flowId ?? null;
  if (flowId === null && ticketCreated) {
    const connection = await ctx.db
      .knex('whatsapps as w')
      .where({ 'w.id': ticket.whatsappId, 'w.companyId': companyId })
      .first('w.flowIdWelcome', 'w.flowIdNotPhrase', ctx.db.knex.raw(`${INTEGRATION_FLOW_SQL} AS integration_flow_id`));
    const earlier = await ctx.db
      .knex('tickets')
      .where({ companyId, contactId: ticket.contactId })
      .whereNot('id', ticket.id)
      .first('id');
    flowId = (earlier ? connection?.flowIdNotPhrase : connection?.flowIdWelcome) ?? connection?.integrationFlowId ?? null;
  }
  if (flowId === null) return null;
  if (await onVacation(ctx, companyId, ticket.whatsappId, new Date())) return null;
  const document = await loadDocument(ctx, companyId, flowId);
  const start = document ? startNode(document) : null;
  if (!document || !start) return null;
  const settings = await ctx.settings.all(companyId);
  if (settings.enableLGPD === 'enabled' && settings.lgpdConsent === 'enabled') {
    const contact = await ctx.db.knex('contacts').where({ id: ticket.contactId, companyId }).first('lgpdAcceptedAt');
    if (!contact?.lgpdAcceptedAt) return null;
  }
  return { flowId, document, start };
}

/**
 * The `flows` service's question: whether a flow has this message — a run that already took it (the job
 * may be quicker than the asker) or is under way on the ticket, or the same triggers the turn starts by, on
 * a ticket waiting for people and handed to no integration.
 */
export async function flowStartsFor(ctx: FlowbuilderContext, query: FlowStartQuery): Promise<boolean> {
  const ticket = await loadTicket(ctx, query.companyId, query.ticketId);
  if (!ticket || ticket.whatsappId !== query.whatsappId) return false;
  const run = await loadRun(ctx, query.companyId, query.ticketId);
  if (run && run.lastMessageId !== null && Number(run.lastMessageId) >= query.messageId) return true;
  if (run && (ACTIVE as readonly string[]).includes(run.status)) return true;
  if (!open(ticket) || (ticket.useIntegration && ticket.integrationId !== null)) return false;
  return (await triggeredFlow(ctx, query.companyId, ticket, query.body, query.ticketCreated)) !== null;
}

/** Starts a run when a trigger holds (`triggeredFlow`). */
async function startByTrigger(
  ctx: FlowbuilderContext,
  companyId: number,
  ticket: TicketRow,
  body: string,
  input: { messageId: number; ticketCreated: boolean },
  previousStep: number,
): Promise<{ run: RunRow; document: FlowDocument } | null> {
  const triggered = await triggeredFlow(ctx, companyId, ticket, body, input.ticketCreated);
  if (!triggered) return null;
  const run = await startRun(ctx, companyId, ticket, triggered.flowId, triggered.start, input.messageId, previousStep);
  return { run, document: triggered.document };
}

/**
 * A ticket handed to a `flowbuilder` queue integration (a queue's or a chatbot option's): the integration's
 * flow starts on it, walked by a job, and the ticket is the flow's from then on (`integrationId` cleared, as
 * with a trigger). `messageId`: the message that led to the hand-off, never the flow's answer. False when
 * no flow can start (none named, inactive, no document or start node, or the plan lost the flow builder):
 * the caller hands the ticket back to people. A run already under way on the ticket is left to go on.
 */
export async function startIntegrationFlow(
  ctx: FlowbuilderContext,
  companyId: number,
  ticketId: number,
  flowId: number | null,
  messageId: number | null,
): Promise<boolean> {
  const ticket = await loadTicket(ctx, companyId, ticketId);
  if (!ticket || !open(ticket) || flowId === null) return false;
  const previous = await loadRun(ctx, companyId, ticketId);
  if (previous && (ACTIVE as readonly string[]).includes(previous.status)) return true;
  if (!(await ctx.plans.has(companyId, 'useIntegrations'))) return false;
  const document = await loadDocument(ctx, companyId, flowId);
  const start = document ? startNode(document) : null;
  if (!start) return false;
  const run = await startRun(ctx, companyId, ticket, flowId, start, messageId, previous?.step ?? -1);
  await ctx.jobs.enqueue(
    FLOW_STEP_JOB,
    { ticketId, kind: 'resume' },
    { companyId, jobId: `flow-resume-${ticketId}-${run.step}` },
  );
  return true;
}

/** Starts a run of `flowId` at `start` on the ticket, which becomes the flow's (the integration toggle on). */
async function startRun(
  ctx: FlowbuilderContext,
  companyId: number,
  ticket: TicketRow,
  flowId: number,
  start: FlowNode,
  messageId: number | null,
  previousStep: number,
): Promise<RunRow> {
  const contact = await ctx.db.knex('contacts').where({ id: ticket.contactId, companyId }).first('name', 'number', 'email');
  const variables: FlowVariables = {
    name: String(contact?.name ?? ''),
    number: String(contact?.number ?? ''),
    email: String(contact?.email ?? ''),
  };
  const now = new Date();
  const [row] = await ctx.db
    .knex('flowRuns')
    .insert({
      ticketId: ticket.id,
      companyId,
      flowId,
      nodeId: start.id,
      elementIndex: 0,
      status: 'running',
      waitingFor: null,
      // steps go on counting over an earlier run of the ticket: a step's messages keep their own names
      step: previousStep + 1,
      variables: JSON.stringify(variables),
      attempts: 0,
      askedAt: null,
      dueAt: null,
      lastMessageId: messageId,
      typebotSessionId: null,
      endReason: null,
      // the database's clock, as the steps' `at`: the replay shows the steps at or after it
      startedAt: ctx.db.knex.fn.now(),
      updatedAt: now,
    })
    .onConflict('ticketId')
    .merge()
    .returning('*');
  // the ticket is the flow's now: the header's integration toggle shows it and pauses it
  await ctx.services.use('inbox').applyTicketChange({
    ticketId: ticket.id,
    useIntegration: true,
    integrationId: null,
    logs: [{ type: 'flow' }],
    expect: { status: 'pending', userId: null },
  });
  ticket.useIntegration = true;
  await recordStep(ctx, row as RunRow);
  // a new step of the ticket's: none of its messages exists yet
  freshSteps.add(row as RunRow);
  return row as RunRow;
}

/** Text compared without case, accents or repeated spaces. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Runs whose step this process's turn wrote (a row `patchRun` answered with a higher step than it was
 * given): no message of that step can exist yet, so their sends skip the look-up. A row read from the
 * database is never here: a step repeated after a crash looks first.
 */
const freshSteps = new WeakSet<RunRow>();

/** Writes `patch` on the run; with `record`, the replay's step row too, in the same statement. */
async function patchRun(ctx: FlowbuilderContext, run: RunRow, patch: Record<string, unknown>, record = false): Promise<RunRow> {
  const values = { ...patch, updatedAt: new Date() };
  if ('variables' in values) values.variables = JSON.stringify(values.variables);
  const update = ctx.db
    .knex('flowRuns')
    .where({ ticketId: run.ticketId, companyId: run.companyId })
    .update(values)
    .returning('*');
  let row: RunRow;
  if (record) {
    // one round trip: the update, and the step row built from what it returned
    const { sql, bindings } = update.toSQL();
    const result = (await ctx.db.knex.raw(
      `WITH moved AS (${sql}),
       recorded AS (INSERT INTO flow_run_steps (company_id, ticket_id, flow_id, node_id, variables)
         SELECT company_id, ticket_id, flow_id, node_id, variables FROM moved)
       SELECT ${RUN_COLUMNS.replace(/r\./g, 'moved.')} FROM moved`,
      bindings,
    )) as { rows: Array<Record<string, unknown>> };
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(result.rows[0] ?? {})) fields[key.slice(4)] = value;
    row = fields as unknown as RunRow;
  } else {
    row = ((await update) as RunRow[])[0] as RunRow;
  }
  if (row && typeof patch.step === 'number' && patch.step > run.step) freshSteps.add(row);
  else if (row && freshSteps.has(run) && row.step === run.step) freshSteps.add(row);
  return row;
}

async function recordStep(ctx: FlowbuilderContext, run: RunRow): Promise<void> {
  await ctx.db.knex('flowRunSteps').insert({
    companyId: run.companyId,
    ticketId: run.ticketId,
    flowId: run.flowId,
    nodeId: run.nodeId,
    variables: JSON.stringify(run.variables ?? {}),
  });
}

/** The run moves to `nodeId` (a new step, recorded for the replay by the same statement). */
async function moveTo(
  ctx: FlowbuilderContext,
  run: RunRow,
  nodeId: string,
  extra: Record<string, unknown> = {},
): Promise<RunRow> {
  return patchRun(
    ctx,
    run,
    {
      ...extra,
      nodeId,
      elementIndex: 0,
      step: run.step + 1,
      attempts: 0,
      askedAt: null,
      status: 'running',
      waitingFor: null,
    },
    true,
  );
}

async function end(
  ctx: FlowbuilderContext,
  ticket: TicketRow,
  run: RunRow,
  status: RunStatus,
  reason: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await patchRun(ctx, run, { ...extra, status, waitingFor: null, endReason: reason.slice(0, 40) });
  // the conversation goes back to people: the toggle off, the ticket waiting in its queue
  await ctx.services
    .use('inbox')
    .applyTicketChange({ ticketId: ticket.id, useIntegration: false, expect: { status: 'pending', userId: null } });
}

/**
 * Sends one message of a step, once: a message with the same name on the ticket means a process died
 * after sending it and before recording the step.
 */
async function sendOnce(
  ctx: FlowbuilderContext,
  ticket: TicketRow,
  run: RunRow,
  part: string,
  message: { body: string; media?: { storageKey: string; kind: 'img' | 'audio' | 'video' } },
): Promise<void> {
  const automation = `flow:${run.flowId}:${run.nodeId}:${run.step}${part === '' ? '' : `:${part}`}`;
  const sent =
    !freshSteps.has(run) &&
    (await ctx.db
      .knex('messages')
      .where({ companyId: run.companyId, ticketId: ticket.id, fromMe: true })
      .whereRaw(`data_json->>'automation' = ?`, [automation])
      .first('id'));
  if (sent) return;
  const media = message.media
    ? {
        storageKey: message.media.storageKey,
        fileName: message.media.storageKey.split('/').pop() ?? 'file',
        mimetype: mimeOf(message.media.storageKey),
        mediaType: message.media.kind === 'img' ? 'image' : message.media.kind,
      }
    : null;
  await ctx.services.use('inbox').send({ ticketId: ticket.id, body: message.body, automation, media });
}

function mimeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  const types: Record<string, string> = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    ogg: 'audio/ogg',
    opus: 'audio/ogg',
    mp3: 'audio/mpeg',
    mp4: 'video/mp4',
  };
  return types[ext] ?? 'application/octet-stream';
}

/** The menu as one text: its message, then the options numbered. */
export function menuText(node: Extract<FlowNode, { type: 'menu' }>, variables: FlowVariables): string {
  const options = node.data.arrayOption.map((option) => `[${option.number}] ${interpolate(option.value, variables)}`);
  return [interpolate(node.data.message, variables), '', ...options].join('\n');
}

/** Walks from the run's node until the flow waits or ends, one recorded step per node. */
async function walk(ctx: FlowbuilderContext, ticket: TicketRow, initial: RunRow, document: FlowDocument | null): Promise<void> {
  let run = initial;
  if (!document) return void (await end(ctx, ticket, run, 'failed', 'flow gone'));
  for (let steps = 0; steps < MAX_STEPS_PER_TURN; steps += 1) {
    const node = document.nodes.find((candidate) => candidate.id === run.nodeId);
    if (!node) return void (await end(ctx, ticket, run, 'failed', 'node gone'));
    let handle: string | null = null;
    switch (node.type) {
      case 'start':
      case 'condition': {
        if (node.type === 'condition') handle = holds(node.data, run.variables) ? 'a' : 'b';
        break;
      }
      case 'message':
        await sendOnce(ctx, ticket, run, '', { body: interpolate(node.data.label, run.variables) });
        break;
      case 'img':
      case 'audio':
      case 'video':
        await sendOnce(ctx, ticket, run, '', { body: '', media: { storageKey: node.data.url, kind: node.type } });
        break;
      case 'randomizer':
        handle = Math.random() * 100 < node.data.percent ? 'a' : 'b';
        break;
      case 'interval':
        await waitInterval(ctx, run, node.data.sec);
        return;
      case 'singleBlock': {
        const byNumber = new Map(node.data.elements.map((element) => [element.number, element]));
        for (let index = run.elementIndex; index < node.data.seq.length; index += 1) {
          const element = byNumber.get(node.data.seq[index] as string);
          if (!element) continue;
          if (element.type === 'interval') {
            run = await patchRun(ctx, run, { elementIndex: index + 1 });
            await waitInterval(ctx, run, Number(element.value));
            return;
          }
          if (element.type === 'message')
            await sendOnce(ctx, ticket, run, element.number, { body: interpolate(element.value, run.variables) });
          else
            await sendOnce(ctx, ticket, run, element.number, {
              body: '',
              media: { storageKey: element.value, kind: element.type },
            });
        }
        break;
      }
      case 'menu':
        await sendOnce(ctx, ticket, run, '', { body: menuText(node, run.variables) });
        await patchRun(ctx, run, { status: 'waiting', waitingFor: 'answer', askedAt: run.askedAt ?? new Date() });
        return;
      case 'question':
        await sendOnce(ctx, ticket, run, '', { body: interpolate(node.data.typebotIntegration.message, run.variables) });
        await patchRun(ctx, run, { status: 'waiting', waitingFor: 'answer', askedAt: new Date() });
        return;
      case 'ticket': {
        // the hand-off: the ticket goes to the node's queue and waits for people there
        await ctx.services.use('inbox').applyTicketChange({
          ticketId: ticket.id,
          queueId: node.data.data.id,
          useIntegration: false,
          logs: [{ type: 'queue', queueId: node.data.data.id }],
          expect: { status: 'pending', userId: null },
        });
        await patchRun(ctx, run, { status: 'done', waitingFor: null, endReason: 'queue' });
        return;
      }
      case 'typebot':
        run = await patchRun(ctx, run, { status: 'waiting', waitingFor: 'typebot', typebotSessionId: null });
        await typebotTurn(ctx, ticket, run, '', {}, document);
        return;
      case 'openai':
        // the model converses from here on: an answer now, then one per customer message
        run = await patchRun(ctx, run, { status: 'waiting', waitingFor: 'openai' });
        await openaiTurn(ctx, ticket, run, {}, document);
        return;
    }
    const next = nextNodeId(document, node.id, handle);
    if (next === null) return void (await end(ctx, ticket, run, 'done', 'end'));
    run = await moveTo(ctx, run, next);
  }
  await end(ctx, ticket, run, 'failed', 'loop');
}

async function waitInterval(ctx: FlowbuilderContext, run: RunRow, seconds: number): Promise<void> {
  const dueAt = Date.now() + Math.max(1, Math.min(120, seconds)) * 1000;
  // the job first: a process dying between the two leaves a running run (the sweeper's) and a job that
  // finds no interval to end, never a run waiting for a job that doesn't exist
  await scheduleDue(ctx, run.companyId, dueAt);
  await patchRun(ctx, run, { status: 'waiting', waitingFor: 'interval', dueAt: new Date(dueAt) });
}

/** A `flow-due` job for the interval the run waits on (its first one was spent while the run was paused). */
async function resumeInterval(ctx: FlowbuilderContext, run: RunRow): Promise<void> {
  await scheduleDue(ctx, run.companyId, Math.max(run.dueAt ? new Date(run.dueAt).getTime() : 0, Date.now()));
}

/**
 * A `flow-due` job of the company at `dueAt`, rounded up to its quarter second: every run due in that
 * quarter second enqueues the same job (a pending id is one job). A time already past gets a job of its
 * own, since the job of its quarter second may be running already.
 */
async function scheduleDue(ctx: FlowbuilderContext, companyId: number, dueAt: number): Promise<void> {
  const bucket = Math.ceil(dueAt / DUE_BUCKET_MS) * DUE_BUCKET_MS;
  const delayMs = bucket - Date.now();
  await ctx.jobs.enqueue(
    FLOW_DUE_JOB,
    {},
    delayMs > 0
      ? { companyId, delayMs, jobId: `flow-due-${bucket}` }
      : { companyId, jobId: `flow-due-${bucket}-${leaseToken()}` },
  );
}

/**
 * Takes up to DUE_BATCH of the company's runs whose interval is due, in one statement: the rows locked
 * (another claim skips them), each ticket's turn lease taken under one token (a ticket whose turn another
 * job holds is left waiting), and the runs marked `running` with `waitingFor` still `interval` — the mark
 * by which the sweeper carries on a claim whose process died before moving the run on.
 */
async function claimDue(ctx: FlowbuilderContext, companyId: number, token: string): Promise<RunRow[]> {
  const result = (await ctx.db.knex.raw(
    `WITH due AS (
       SELECT ticket_id FROM flow_runs
       WHERE company_id = ? AND status = 'waiting' AND waiting_for = 'interval' AND due_at <= now()
       ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED),
     leased AS (
       INSERT INTO flow_turn_leases (ticket_id, token, lease_until)
       SELECT ticket_id, ?, now() + ? * interval '1 millisecond' FROM due
       ON CONFLICT (ticket_id) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until
       WHERE flow_turn_leases.lease_until < now()
       RETURNING ticket_id)
     UPDATE flow_runs r SET status = 'running', updated_at = now()
     FROM leased WHERE r.ticket_id = leased.ticket_id AND r.company_id = ?
     RETURNING ${RUN_COLUMNS}`,
    [companyId, DUE_BATCH, token, TURN_LEASE_MS, companyId],
  )) as { rows: Array<Record<string, unknown>> };
  return result.rows.map((row) => {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) fields[key.slice(4)] = value;
    return fields as unknown as RunRow;
  });
}

/**
 * The `flow-due` job: the company's due intervals, a batch at a time — one claim, one read of the batch's
 * tickets and flow versions, then each run's turn (DUE_PARALLEL at once) under the claim's leases, released
 * together. A run that fails is left to the sweeper. Due runs a claim could not take (their ticket's turn
 * was taken) get another job half a second on.
 */
export async function flowDue(ctx: FlowbuilderContext, companyId: number): Promise<number> {
  let resumed = 0;
  for (;;) {
    const token = leaseToken();
    const claimed = await claimDue(ctx, companyId, token);
    if (claimed.length === 0) break;
    const renewal = keepLeaseAhead({
      leaseMs: TURN_LEASE_MS,
      clock: systemClock,
      renew: (leaseUntil) => ctx.db.knex('flowTurnLeases').where({ token }).update({ leaseUntil }),
      onError: (error) => ctx.log.warn({ err: error, companyId }, 'flow due lease renewal failed'),
    });
    try {
      const read = (await ctx.db.knex.raw(
        `SELECT ${TICKET_COLUMNS}, f.updated_at AS "flowUpdatedAt"
         FROM tickets t JOIN flow_runs r ON r.ticket_id = t.id AND r.company_id = t.company_id
         LEFT JOIN flow_builders f ON f.id = r.flow_id AND f.company_id = r.company_id AND f.active
         WHERE t.company_id = ? AND t.id = ANY(?::int[])`,
        [companyId, claimed.map((run) => run.ticketId)],
      )) as { rows: Array<TicketRow & { flowUpdatedAt: Date | null }> };
      const tickets = new Map(read.rows.map((row) => [Number(row.id), row]));
      let next = 0;
      const lane = async () => {
        for (let index = next++; index < claimed.length; index = next++) {
          const run = claimed[index] as RunRow;
          const ticket = tickets.get(Number(run.ticketId));
          if (!ticket) continue;
          try {
            if (!open(ticket)) {
              await patchRun(ctx, run, {
                status: 'stopped',
                waitingFor: null,
                dueAt: null,
                endReason: ticket.userId !== null ? 'accepted' : ticket.status,
              });
              continue;
            }
            const version = ticket.flowUpdatedAt ? new Date(ticket.flowUpdatedAt).getTime() : null;
            await pastInterval(ctx, ticket, run, version);
            resumed += 1;
          } catch (error) {
            ctx.log.warn(
              { err: error, ticketId: run.ticketId, companyId },
              'due flow interval failed; the sweeper carries it on',
            );
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(DUE_PARALLEL, claimed.length) }, lane));
    } finally {
      await renewal.stop();
      await ctx.db.knex('flowTurnLeases').where({ token }).delete();
    }
    if (claimed.length < DUE_BATCH) break;
  }
  const left = await ctx.db
    .knex('flowRuns')
    .where({ companyId, status: 'waiting', waitingFor: 'interval' })
    .where('dueAt', '<=', ctx.db.knex.fn.now())
    .first('ticketId');
  if (left) await scheduleDue(ctx, companyId, Date.now() + 500);
  return resumed;
}

function holds(data: ConditionNodeData, variables: FlowVariables): boolean {
  const actual = (variables[data.key.trim()] ?? '').trim();
  const expected = interpolate(data.value, variables).trim();
  const [a, b] = [Number(actual.replace(',', '.')), Number(expected.replace(',', '.'))];
  const numeric = actual !== '' && expected !== '' && Number.isFinite(a) && Number.isFinite(b);
  switch (data.condition) {
    case '==':
      return fold(actual) === fold(expected);
    case '!=':
      return fold(actual) !== fold(expected);
    case 'contains':
      return fold(actual).includes(fold(expected));
    case '>':
      return numeric && a > b;
    case '>=':
      return numeric && a >= b;
    case '<':
      return numeric && a < b;
    case '<=':
      return numeric && a <= b;
  }
}

/** The connection's bot limits (maxUseBotQueues menus, timeUseBotQueues minutes; 0: none). */
async function botLimits(ctx: FlowbuilderContext, ticket: TicketRow): Promise<{ max: number; minutes: number }> {
  const row =
    ticket.whatsappId === null
      ? undefined
      : await ctx.db.knex('whatsapps').where({ id: ticket.whatsappId }).first('maxUseBotQueues', 'timeUseBotQueues');
  return { max: Number(row?.maxUseBotQueues ?? 3), minutes: Number(row?.timeUseBotQueues ?? 0) };
}

/**
 * The customer answered the menu or question the run waits at: a question stores the answer; a menu
 * matches the option's number or text, repeats itself on anything else, and gives up — people take over —
 * past the connection's maxUseBotQueues tries or timeUseBotQueues minutes. Answers the moved run, or null
 * when it waits on.
 */
async function answerAt(
  ctx: FlowbuilderContext,
  ticket: TicketRow,
  run: RunRow,
  body: string,
  consumed: { lastMessageId: number },
  document: FlowDocument | null,
): Promise<RunRow | null> {
  const node = document?.nodes.find((candidate) => candidate.id === run.nodeId);
  if (!document || !node) {
    await end(ctx, ticket, run, 'failed', 'flow gone', consumed);
    return null;
  }
  if (node.type === 'question') {
    const variables = { ...run.variables, [node.data.typebotIntegration.answerKey]: body.trim().slice(0, 1000) };
    const next = nextNodeId(document, node.id);
    if (next === null) {
      await end(ctx, ticket, run, 'done', 'end', { ...consumed, variables });
      return null;
    }
    return moveTo(ctx, run, next, { ...consumed, variables });
  }
  if (node.type !== 'menu') {
    await patchRun(ctx, run, consumed);
    return null;
  }
  const said = fold(body);
  const option = node.data.arrayOption.find(
    (candidate) => said === String(candidate.number) || said === fold(interpolate(candidate.value, run.variables)),
  );
  if (option) {
    const next = nextNodeId(document, node.id, `a${option.number}`);
    if (next === null) {
      await end(ctx, ticket, run, 'done', 'end', consumed);
      return null;
    }
    return moveTo(ctx, run, next, consumed);
  }
  const limits = await botLimits(ctx, ticket);
  const attempts = run.attempts + 1;
  const askedAt = run.askedAt ? new Date(run.askedAt).getTime() : Date.now();
  const timedOut = limits.minutes > 0 && Date.now() - askedAt > limits.minutes * 60_000;
  if ((limits.max > 0 && attempts >= limits.max) || timedOut) {
    await end(ctx, ticket, run, 'done', 'menu given up', consumed);
    return null;
  }
  // the menu again, as a new step (its own message)
  const again = await patchRun(ctx, run, { ...consumed, attempts, step: run.step + 1 });
  await sendOnce(ctx, ticket, again, '', { body: menuText(node, again.variables) });
  return null;
}

/** A turn with the typebot node's bot (the queue integrations' client); a failure hands the ticket to people. */
async function typebotTurn(
  ctx: FlowbuilderContext,
  ticket: TicketRow,
  run: RunRow,
  body: string,
  consumed: { lastMessageId?: number },
  document: FlowDocument | null,
): Promise<void> {
  const node = document?.nodes.find((candidate) => candidate.id === run.nodeId);
  if (node?.type !== 'typebot') return void (await end(ctx, ticket, run, 'failed', 'flow gone', consumed));
  const settings = node.data.typebotIntegration;
  if (body !== '' && settings.typebotKeywordFinish && fold(body) === fold(settings.typebotKeywordFinish))
    return void (await end(ctx, ticket, run, 'done', 'typebot finished', consumed));
  const contact = await ctx.db.knex('contacts').where({ id: ticket.contactId, companyId: run.companyId }).first('name', 'number');
  try {
    const reply = sanitizeAnswer(
      await askTypebot(
        { http: integrationHttp(ctx) },
        { urlN8N: settings.urlN8N, typebotSlug: settings.typebotSlug },
        {
          body,
          messageId: null,
          ticket: { id: ticket.id, status: ticket.status, queueId: ticket.queueId, whatsappId: ticket.whatsappId },
          contact: { id: ticket.contactId, name: contact?.name ?? '', number: contact?.number ?? '' },
          sessionId: run.typebotSessionId,
        },
      ),
    );
    const next = await patchRun(ctx, run, { ...consumed, typebotSessionId: reply.sessionId, step: run.step + 1 });
    for (const [index, text] of reply.messages.entries()) await sendOnce(ctx, ticket, next, String(index), { body: text });
  } catch (error) {
    ctx.log.warn({ ticketId: ticket.id, reason: failureReason(error) }, 'typebot node failed; people take over');
    await end(ctx, ticket, run, 'failed', `typebot: ${failureReason(error)}`, consumed);
  }
}

/** The openai node's numbers, within what a prompt accepts (a document saved by hand may hold anything). */
function bounded(value: unknown, min: number, max: number, fallback: number, integer: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) return fallback;
  return integer ? Math.round(value) : value;
}

/**
 * A turn of the openai node (docs/product/automation.md "Flows at work"): the AI plugin's `ai` service
 * answers the ticket's last `maxMessages` messages with the node's prompt and sealed key, under the
 * company's token accounting and monthly cap; the answer is the flow's bot message. The model asking for a
 * person ends the run; a provider failure, the cap, or the service or plan gone end it as failed — the
 * ticket waits in its queue for people either way.
 */
async function openaiTurn(
  ctx: FlowbuilderContext,
  ticket: TicketRow,
  run: RunRow,
  consumed: { lastMessageId?: number },
  document: FlowDocument | null,
): Promise<void> {
  const node = document?.nodes.find((candidate) => candidate.id === run.nodeId);
  if (node?.type !== 'openai') return void (await end(ctx, ticket, run, 'failed', 'flow gone', consumed));
  if (!ctx.services.has('ai') || !(await ctx.plans.has(run.companyId, 'useOpenAi')))
    return void (await end(ctx, ticket, run, 'failed', 'openai: unavailable', consumed));
  const settings = node.data.typebotIntegration;
  const limit = bounded(settings.maxMessages, 1, 100, 10, true);
  const rows: Array<{ body: string; fromMe: boolean }> = await ctx.db
    .knex('messages')
    .where({ companyId: run.companyId, ticketId: ticket.id, isPrivate: false, isDeleted: false })
    .whereNot('body', '')
    .orderBy('id', 'desc')
    .limit(limit)
    .select('body', 'fromMe');
  const messages = rows
    .reverse()
    .map((row) => ({ role: row.fromMe ? ('assistant' as const) : ('user' as const), content: row.body }));
  try {
    const answer = await ctx.services.use('ai').complete(run.companyId, {
      settings: {
        prompt: interpolate(settings.prompt, run.variables),
        apiKeySealed: settings.apiKey,
        maxTokens: bounded(settings.maxTokens, 1, 4096, 100, true),
        temperature: bounded(settings.temperature, 0, 2, 1, false),
        ...(typeof settings.baseUrl === 'string' && settings.baseUrl.trim() !== '' ? { baseUrl: settings.baseUrl } : {}),
        ...(typeof settings.model === 'string' && settings.model.trim() !== '' ? { model: settings.model } : {}),
      },
      messages,
    });
    const next = await patchRun(ctx, run, { ...consumed, step: run.step + 1 });
    if (answer.text !== '') await sendOnce(ctx, ticket, next, '', { body: answer.text });
    if (answer.handOver) await end(ctx, ticket, next, 'done', 'openai handed over');
  } catch (error) {
    const reason = isAppError(error) ? error.code : 'ERR_AI_PROVIDER_FAILED';
    ctx.log.warn({ ticketId: ticket.id, flowId: run.flowId, nodeId: run.nodeId, reason }, 'openai node failed; people take over');
    await end(ctx, ticket, run, 'failed', `openai: ${reason}`, consumed);
  }
}

/** `GET /flowbuilder/runs/:ticketId`: the path a ticket took through its flow, with the variables at each step. */
export async function flowPath(ctx: FlowbuilderContext, companyId: number, ticketId: number) {
  const ticket = await ctx.db.knex('tickets').where({ id: ticketId, companyId }).first('id');
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  const run = await ctx.db.knex('flowRuns').where({ ticketId, companyId }).first('flowId', 'startedAt');
  if (!run) return { flowId: null, steps: [] };
  // the ticket's latest run only: an earlier run of the same flow on the ticket left its own steps
  const steps: Array<{ nodeId: string; at: Date; variables: FlowVariables }> = await ctx.db
    .knex('flowRunSteps')
    .where({ companyId, ticketId, flowId: run.flowId })
    .where('at', '>=', run.startedAt)
    .orderBy('id')
    .limit(2000)
    .select('nodeId', 'at', 'variables');
  return {
    flowId: Number(run.flowId),
    steps: steps.map((step) => ({ nodeId: step.nodeId, at: new Date(step.at).toISOString(), variables: step.variables ?? {} })),
  };
}
