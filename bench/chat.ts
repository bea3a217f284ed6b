/**
 * `npm run bench -- chat`: the internal chat's targets (issue 28), on one server process (the bundle `npm start`
 * runs) against a company of its own in the bench database, made once with set-based SQL (idempotent):
 *
 * - live delivery: the eleven members of one team chat write to it at 200 messages/s in all (`POST
 *   /chats/:id/messages`, each member at its share of the rate) for 15 s; every message must reach the other
 *   ten members' sockets (`company-{id}-chat-{chatId}`, action new-message). Latency runs from the moment the
 *   bench sends the request to the event's arrival at each socket (one clock: the bench process);
 * - the popover's list: `GET /chats?pageNumber=1` (what the top bar's popover and the menu dot read) for a
 *   user who is a member of 500 chats, one request at a time.
 */
import autocannon from 'autocannon';
import { io, type Socket } from 'socket.io-client';
import {
  CpuWindow,
  cpuPerRequest,
  ms,
  percentile,
  reportTo,
  type SectionOptions,
  type ServerProcess,
  startServer,
  withBenchDb,
} from './lib';

const GROUP = 'internal-chat';
const COMPANY = 'Chat Bench';
const READER_EMAIL = 'reader@chat-bench.test';
const TEAM = 10;
const READER_CHATS = 500;
const RATE = Number(process.env.BENCH_CHAT_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_CHAT_SECONDS ?? 15);
const TEAM_CHAT = 'Plantão do bench';

const teamEmail = (n: number) => `team${n}@chat-bench.test`;

/** Makes the bench company, its users and chats unless they are there; answers the team chat's id and company. */
async function ensureChats(log: (line: string) => void): Promise<{ companyId: number; teamChatId: number }> {
  return withBenchDb(async (db) => {
    const existing = await db.query<{ id: number; chats: number }>(
      `SELECT c.id, (SELECT count(*)::int FROM chat_users cu JOIN users u ON u.id = cu.user_id
                     WHERE u.email = $2) AS chats
       FROM companies c WHERE c.name = $1`,
      [COMPANY, READER_EMAIL],
    );
    const found = existing.rows[0];
    if (found && found.chats >= READER_CHATS + 1) {
      const chat = await db.query<{ id: number }>('SELECT id FROM chats WHERE company_id = $1 AND title = $2', [
        found.id,
        TEAM_CHAT,
      ]);
      return { companyId: found.id, teamChatId: chat.rows[0]?.id as number };
    }
    const began = Date.now();
    await db.query('BEGIN');
    try {
      await db.query('DELETE FROM companies WHERE name = $1', [COMPANY]);
      // Acme's plan: every feature on, the internal chat among them
      const company = await db.query<{ id: number }>(
        `INSERT INTO companies (name, email, plan_id, due_date, status)
         SELECT $1, 'chat-bench@bench.test', plan_id, now() + interval '10 years', true FROM companies WHERE name = 'Acme'
         RETURNING id`,
        [COMPANY],
      );
      const companyId = company.rows[0]?.id as number;
      const emails = [READER_EMAIL, ...Array.from({ length: TEAM }, (_, i) => teamEmail(i + 1))];
      await db.query(
        `INSERT INTO users (company_id, name, email, password_hash, profile)
         SELECT $1, 'Bench ' || split_part(e, '@', 1), e, (SELECT password_hash FROM users WHERE email = 'admin@acme.test'),
           CASE WHEN e = $2 THEN 'admin' ELSE 'user' END
         FROM unnest($3::text[]) e`,
        [companyId, READER_EMAIL, emails],
      );
      await db.query(
        `INSERT INTO settings (company_id, key, value)
         SELECT $1, key, value FROM settings WHERE company_id = (SELECT company_id FROM users WHERE email = 'admin@acme.test')`,
        [companyId],
      );
      // the reader's 500 chats, each with one teammate, a few messages and some unread
      await db.query(
        `INSERT INTO chats (company_id, title, owner_id, last_message, created_at, updated_at)
         SELECT $1, 'Conversa ' || n, (SELECT id FROM users WHERE email = $2), 'Mensagem ' || n,
           now() - n * interval '1 minute', now() - n * interval '1 minute'
         FROM generate_series(1, $3) n`,
        [companyId, READER_EMAIL, READER_CHATS],
      );
      await db.query(
        `INSERT INTO chat_users (company_id, chat_id, user_id, unreads)
         SELECT $1, c.id, u.id, CASE WHEN u.email = $2 THEN c.id % 3 ELSE 0 END
         FROM chats c
         JOIN users u ON u.company_id = $1
           AND (u.email = $2 OR u.email = 'team' || (1 + c.id % $3) || '@chat-bench.test')
         WHERE c.company_id = $1`,
        [companyId, READER_EMAIL, TEAM],
      );
      await db.query(
        `INSERT INTO chat_messages (company_id, chat_id, sender_id, message, created_at, updated_at)
         SELECT $1, cu.chat_id, cu.user_id, 'Mensagem de ' || cu.user_id, now() - interval '1 hour', now() - interval '1 hour'
         FROM chat_users cu, generate_series(1, 2)
         WHERE cu.company_id = $1`,
        [companyId],
      );
      // the team chat: the reader and the ten teammates
      const team = await db.query<{ id: number }>(
        `INSERT INTO chats (company_id, title, owner_id) VALUES ($1, $2, (SELECT id FROM users WHERE email = $3)) RETURNING id`,
        [companyId, TEAM_CHAT, READER_EMAIL],
      );
      const teamChatId = team.rows[0]?.id as number;
      await db.query('INSERT INTO chat_users (company_id, chat_id, user_id) SELECT $1, $2, id FROM users WHERE company_id = $1', [
        companyId,
        teamChatId,
      ]);
      await db.query('COMMIT');
      await db.query('VACUUM ANALYZE chats, chat_users, chat_messages');
      log(`chat: made the bench company (${READER_CHATS} chats for the reader) in ${((Date.now() - began) / 1000).toFixed(1)} s`);
      return { companyId, teamChatId };
    } catch (error) {
      await db.query('ROLLBACK').catch(() => {});
      throw error;
    }
  });
}

interface Member {
  id: number;
  token: string;
  socket: Socket;
}

async function connectMember(server: ServerProcess, companyId: number, email: string): Promise<Member> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'demo1234' }),
  });
  if (res.status !== 200) throw new Error(`login of ${email} failed: ${res.status} ${await res.text()}`);
  const { token, user } = (await res.json()) as { token: string; user: { id: number } };
  const socket = io(`${server.url}/${companyId}`, { auth: { token }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return { id: user.id, token, socket };
}

/** Every member writes its share of RATE messages/s for SECONDS; answers each (message, other member) latency. */
async function liveRun(
  server: ServerProcess,
  members: Member[],
  companyId: number,
  chatId: number,
  seconds: number,
  tag: string,
): Promise<{ latencies: number[]; sent: number; failed: number; expected: number; sendSeconds: number }> {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const event = `company-${companyId}-chat-${chatId}`;
  const stamp = new RegExp(`^${tag} (\\d+)$`);
  const handlers = members.map((member) => {
    const handler = (payload: { action?: string; newMessage?: { message?: string; senderId?: number } }) => {
      const now = performance.now();
      if (payload.action !== 'new-message' || payload.newMessage?.senderId === member.id) return;
      const text = payload.newMessage?.message ?? '';
      if (!stamp.test(text)) return;
      const began = sentAt.get(text);
      if (began !== undefined) latencies.push(now - began);
    };
    member.socket.on(event, handler);
    return () => member.socket.off(event, handler);
  });
  const tickMs = 10;
  const perTick = Math.max(1, Math.round((RATE * tickMs) / 1000));
  const ticks = Math.round((seconds * 1000) / tickMs);
  let sent = 0;
  let failed = 0;
  const pending: Array<Promise<void>> = [];
  const started = performance.now();
  for (let tick = 0; tick < ticks; tick++) {
    const due = started + tick * tickMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (let i = 0; i < perTick; i++) {
      const member = members[sent % members.length] as Member;
      const text = `${tag} ${sent}`;
      sent += 1;
      sentAt.set(text, performance.now());
      pending.push(
        fetch(`${server.url}/api/chats/${chatId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ message: text }),
        }).then(
          async (res) => {
            if (res.status !== 200) failed += 1;
            await res.arrayBuffer();
          },
          () => {
            failed += 1;
          },
        ),
      );
    }
  }
  await Promise.all(pending);
  const sendSeconds = (performance.now() - started) / 1000;
  const expected = sent * (members.length - 1);
  // the last events are on their way: wait until they are in (or 5 s)
  const deadline = performance.now() + 5_000;
  while (latencies.length < expected - failed * (members.length - 1) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const stop of handlers) stop();
  return { latencies, sent, failed, expected, sendSeconds };
}

export async function chatBenchmarks(options: SectionOptions): Promise<void> {
  const log = options.log ?? console.log;
  const push = reportTo(options);
  const { companyId, teamChatId } = await ensureChats(log);
  const server = await startServer(options.port);
  const members: Member[] = [];
  try {
    for (const email of [READER_EMAIL, ...Array.from({ length: TEAM }, (_, i) => teamEmail(i + 1))]) {
      members.push(await connectMember(server, companyId, email));
    }
    const reader = members[0] as Member;

    log('chat: warm-up…');
    await liveRun(server, members, companyId, teamChatId, 2, `w${Date.now()}`);
    log(`chat: ${RATE} messages/s for ${SECONDS} s in a chat of ${members.length}…`);
    const cpu = CpuWindow.start(server.child.pid ?? 0);
    const run = await liveRun(server, members, companyId, teamChatId, SECONDS, `m${Date.now()}`);
    const used = cpu.end();
    const p99 = percentile(run.latencies, 99);
    const delivered = run.latencies.length;
    push({
      group: GROUP,
      name: `A team chat of ${members.length} members writing ${RATE} messages/s in all for ${SECONDS} s: request sent → new-message on each other member's socket`,
      target: 'p99 ≤ 50 ms',
      value: `p99 ${ms(p99)} ms`,
      ok: p99 <= 50 && run.failed === 0 && delivered === run.expected,
      detail:
        `p50 ${ms(percentile(run.latencies, 50))} ms, p95 ${ms(percentile(run.latencies, 95))} ms, max ${ms(percentile(run.latencies, 100))} ms; ` +
        `${run.sent.toLocaleString('en-US')} messages sent in ${run.sendSeconds.toFixed(1)} s (${run.failed} refused), ` +
        `${delivered.toLocaleString('en-US')} of ${run.expected.toLocaleString('en-US')} deliveries to sockets<br>${cpuPerRequest(used, run.sent)}`,
    });

    log(`chat: the popover's list for a member of ${READER_CHATS} chats…`);
    const listLatencies: number[] = [];
    const listCpu = CpuWindow.start(server.child.pid ?? 0);
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `${server.url}/api/chats?pageNumber=1`,
          connections: 1,
          duration: 10,
          headers: { authorization: `Bearer ${reader.token}` },
        },
        (error, answer) => (error ? reject(error) : resolve(answer)),
      );
      instance.on('response', (_client, status, _size, time) => {
        if (status === 200) listLatencies.push(time);
      });
    });
    const listUsed = listCpu.end();
    const p95 = percentile(listLatencies, 95);
    const failures = result.non2xx + result.errors + result.timeouts;
    push({
      group: GROUP,
      name: `GET /chats?pageNumber=1 (the popover's list and the menu dot) for a member of ${READER_CHATS} chats, one request at a time, 10 s`,
      target: 'p95 ≤ 10 ms',
      value: `p95 ${ms(p95)} ms`,
      ok: p95 <= 10 && failures === 0,
      detail: `p50 ${ms(percentile(listLatencies, 50))} ms, p99 ${ms(percentile(listLatencies, 99))} ms; ${listLatencies.length.toLocaleString('en-US')} requests, ${failures} failed<br>${cpuPerRequest(listUsed, listLatencies.length)}`,
    });
  } finally {
    for (const member of members) member.socket.close();
    await server.stop();
  }
}
