/**
 * `npm run bench`: the issue's targets, measured on loopback against a seeded database and written to
 * docs/benchmarks.md (and bench/results/latest.json). Benchmarks print figures; they never fail on time.
 *
 * Sections: process start to ready, idle memory, GET /auth/me throughput, JS before the login paints; the
 * inbox's list, search, messages and inbound receive on a generated data set (bench/inbox.ts).
 * Run one section with `npm run bench -- startup` (names: startup, memory, me, bundle, and `inbox` for
 * all four inbox sections or one of inbox-tickets, inbox-search, inbox-messages, inbox-receive; `kanban` for the
 * board of bench/kanban.ts; `webchat`; `insights` for the dashboard, report, export and Moments of bench/insights.ts;
 * `whatsapp` for the WhatsApp channel against the loopback peer, bench/whatsapp.ts; `campaigns` for imports and
 * campaign dispatch, bench/campaigns.ts; `api` for the message API with an API key, bench/api.ts; `schedules` for
 * 10,000 schedules due in one minute, bench/schedules.ts; `chat` for the internal chat's live delivery and popover
 * list, bench/chat.ts; `webhooks` for the inbox's receive while webhooks fan out, bench/webhooks.ts; `meta` for the
 * Meta webhooks against the Graph stand-in, bench/meta.ts; `ai` for the AI assistant's receive cost and reply time,
 * bench/ai.ts; `flows` for the flow runtime's receive path and 1,000 intervals due at once, bench/flows.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@balcao/server';
import autocannon from 'autocannon';
import { buildIfNeeded } from '../scripts/lib/build';
import { aiBenchmarks } from './ai';
import { apiBenchmarks } from './api';
import { campaignsBenchmarks } from './campaigns';
import { chatBenchmarks } from './chat';
import { flowsBenchmarks } from './flows';
import { INBOX_SECTIONS, inboxBenchmarks } from './inbox';
import { insightsBenchmarks } from './insights';
import { kanbanBenchmarks } from './kanban';
import { type Figure, login, machine, machineReference, median, prepareDatabase, rssMb, startServer } from './lib';
import { metaBenchmarks } from './meta';
import { schedulesBenchmarks } from './schedules';
import { webchatBenchmarks } from './webchat';
import { webhooksBenchmarks } from './webhooks';
import { whatsappBenchmarks } from './whatsapp';

const figures: Figure[] = [];
const only = process.argv.slice(2);
const wants = (section: string) =>
  only.length === 0 || only.includes(section) || (section.startsWith('inbox-') && only.includes('inbox'));
const PORT = Number(process.env.BENCH_PORT ?? 8181);

async function sampleRss(server: { child: { pid?: number } }, afterMs: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  return rssMb(server.child.pid ?? 0);
}

async function startupAndMemory(): Promise<void> {
  // the first start warms the OS file cache (node_modules, the bundle), like any start after the first
  const warm = await startServer(PORT);
  await warm.stop();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const server = await startServer(PORT);
    times.push(server.readyMs);
    if (i === 4 && wants('memory')) {
      // "idle": after the server has settled its heap (server/src/infra/heap-settle.ts: 2 s and 8 s after ready)
      const afterFive = await sampleRss(server, 5_000);
      const idle = await sampleRss(server, 25_000);
      figures.push({
        group: 'plugin-host',
        name: 'Idle memory (RSS of the server process, all plugins loaded, 30 s after ready)',
        target: '≤ 150 MB',
        value: `${idle.toFixed(0)} MB`,
        ok: idle <= 150,
        detail: `${afterFive.toFixed(0)} MB 5 s after ready (the start's garbage compacted, the young generation not yet shrunk)`,
      });
    }
    await server.stop();
  }
  const startup = median(times);
  if (wants('startup')) {
    figures.push({
      group: 'plugin-host',
      name: 'Process start to ready (spawn → first 200 of /readyz, migrations applied), median of 5',
      target: '≤ 1.5 s',
      value: `${(startup / 1000).toFixed(2)} s`,
      ok: startup <= 1500,
      detail: `runs: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s`,
    });
  }
}

async function authMe(): Promise<void> {
  const server = await startServer(PORT);
  try {
    const token = await login(server.url);
    const run = (duration: number) =>
      autocannon({
        url: `${server.url}/api/auth/me`,
        connections: 50,
        duration,
        headers: { authorization: `Bearer ${token}` },
      });
    await run(3); // warm-up: JIT, caches
    const result = await run(15);
    const rps = result.requests.average;
    const errors = result.non2xx + result.errors;
    figures.push({
      group: 'plugin-host',
      name: 'GET /auth/me, 50 connections, 15 s (autocannon in the bench process)',
      target: '≥ 8,000 req/s',
      value: `${Math.round(rps).toLocaleString('en-US')} req/s`,
      ok: rps >= 8_000 && errors === 0,
      detail: `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; non-2xx/errors: ${errors}`,
    });
  } finally {
    await server.stop();
  }
}

async function bundle(): Promise<void> {
  if (!existsSync(path.join(REPO_ROOT, 'host', 'dist', 'index.html'))) {
    figures.push({
      group: 'plugin-host',
      name: 'JS before the login page paints',
      target: '≤ 300 KB gz',
      value: 'not measured: run `npm run build` first',
      ok: false,
    });
    return;
  }
  const { measureBundles } = await import('./bundle-size');
  const server = await startServer(PORT);
  try {
    const sizes = await measureBundles(server.url);
    figures.push({
      group: 'plugin-host',
      name: 'JS loaded before the login page paints (gzip)',
      target: '≤ 300 KB',
      value: `${(sizes.loginJsGzipBytes / 1024).toFixed(0)} KB in ${sizes.loginJsFiles} files`,
      ok: sizes.loginJsGzipBytes <= 300 * 1024,
    });
    figures.push({
      group: 'plugin-host',
      name: 'Whole shell after login (all JS the frame loads, gzip)',
      target: 'measured',
      value: `${(sizes.shellJsGzipBytes / 1024).toFixed(0)} KB`,
      ok: true,
    });
  } finally {
    await server.stop();
  }
}

const SECTION_TITLES: Record<string, string> = {
  'plugin-host': 'Plugin host',
  inbox: 'Inbox',
  kanban: 'Kanban',
  webchat: 'Webchat',
  insights: 'Insights',
  whatsapp: 'WhatsApp',
  campaigns: 'Campaigns',
  api: 'Message API',
  schedules: 'Schedules',
  'internal-chat': 'Internal chat',
  webhooks: 'Webhooks',
  meta: 'Meta channels',
  flows: 'Flows',
};

/**
 * Writes the figures of the groups that ran into their own section of docs/benchmarks.md (between
 * `<!-- bench:<group>:start/end -->`) and into bench/results/latest.json, keeping the other groups'
 * figures of earlier runs.
 */
function writeReport(reference: string): void {
  const dir = path.join(REPO_ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const when = new Date().toISOString();
  const groups = [...new Set(figures.map((f) => f.group))];
  const latestFile = path.join(dir, 'latest.json');
  const previous = existsSync(latestFile)
    ? ((JSON.parse(readFileSync(latestFile, 'utf8')) as { figures?: Array<Partial<Figure>> }).figures ?? [])
    : [];
  const kept = previous
    .map((f) => ({ ...f, group: f.group ?? 'plugin-host' }) as Figure)
    .filter((f) => !groups.includes(f.group));
  writeFileSync(latestFile, JSON.stringify({ when, machine: machine(), reference, figures: [...kept, ...figures] }, null, 2));
  const docFile = path.join(REPO_ROOT, 'docs', 'benchmarks.md');
  let doc = existsSync(docFile) ? readFileSync(docFile, 'utf8') : '# Benchmarks\n';
  for (const group of groups) {
    const table = [
      '| Measure | Target | Result | |',
      '|---|---|---|---|',
      ...figures
        .filter((f) => f.group === group)
        .map(
          (f) =>
            `| ${f.name}${f.detail ? `<br><small>${f.detail}</small>` : ''} | ${f.target} | ${f.value} | ${f.ok ? '✅' : '❌'} |`,
        ),
    ].join('\n');
    const start = `<!-- bench:${group}:start -->`;
    const end = `<!-- bench:${group}:end -->`;
    const section = `${start}\nLast run: ${when} on ${machine()}; ${reference}.\n\n${table}\n${end}`;
    const existing = new RegExp(`${start}[\\s\\S]*${end}`);
    doc = existing.test(doc)
      ? doc.replace(existing, () => section)
      : `${doc.trimEnd()}\n\n## ${SECTION_TITLES[group] ?? group}\n\n${section}\n`;
  }
  writeFileSync(docFile, doc);
}

async function main(): Promise<void> {
  console.log(`Benchmarks on ${machine()}`);
  // before anything else runs: the machine's own speed, quiet
  const reference = await machineReference();
  console.log(`Machine ${reference}`);
  // measure what `npm start` runs: the server bundle, rebuilt when its sources changed
  await buildIfNeeded(REPO_ROOT, console.log);
  await prepareDatabase();
  if (wants('startup') || wants('memory')) await startupAndMemory();
  if (wants('me')) await authMe();
  if (wants('bundle')) await bundle();
  if (INBOX_SECTIONS.some((section) => wants(section))) {
    await inboxBenchmarks({ port: PORT, wants, push: (figure) => figures.push(figure) });
  }
  if (wants('kanban')) await kanbanBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('webchat')) await webchatBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('insights')) await insightsBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('whatsapp')) await whatsappBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('campaigns')) await campaignsBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('api')) await apiBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('schedules')) await schedulesBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('chat')) await chatBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('webhooks')) await webhooksBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('meta')) await metaBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('ai')) await aiBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  if (wants('flows')) await flowsBenchmarks({ port: PORT, push: (figure) => figures.push(figure) });
  for (const figure of figures) {
    console.log(
      `${figure.ok ? '✓' : '✗'} ${figure.name}: ${figure.value} (target ${figure.target})${figure.detail ? ` — ${figure.detail}` : ''}`,
    );
  }
  writeReport(reference);
  console.log('Written to docs/benchmarks.md and bench/results/latest.json');
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
