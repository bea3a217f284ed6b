/**
 * `npm run bench`: the issue's targets, measured on loopback against a seeded database and written to
 * docs/benchmarks.md (and bench/results/latest.json). Benchmarks print figures; they never fail on time.
 *
 * Sections: process start to ready, idle memory, GET /auth/me throughput, JS before the login paints.
 * Run one section with `npm run bench -- startup` (names: startup, memory, me, bundle).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@balcao/server';
import autocannon from 'autocannon';
import { buildIfNeeded } from '../scripts/lib/build';
import { login, machine, median, prepareDatabase, rssMb, startServer } from './lib';

interface Figure {
  name: string;
  target: string;
  value: string;
  ok: boolean;
  detail?: string;
}

const figures: Figure[] = [];
const only = process.argv.slice(2);
const wants = (section: string) => only.length === 0 || only.includes(section);
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
      // "idle": after V8's memory reducer has had its chance (it runs once a process goes quiet)
      const afterFive = await sampleRss(server, 5_000);
      const idle = await sampleRss(server, 25_000);
      figures.push({
        name: 'Idle memory (RSS of the server process, all plugins loaded, 30 s after ready)',
        target: '≤ 150 MB',
        value: `${idle.toFixed(0)} MB`,
        ok: idle <= 150,
        detail: `${afterFive.toFixed(0)} MB 5 s after ready, before the memory reducer ran`,
      });
    }
    await server.stop();
  }
  const startup = median(times);
  if (wants('startup')) {
    figures.push({
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
      name: 'JS loaded before the login page paints (gzip)',
      target: '≤ 300 KB',
      value: `${(sizes.loginJsGzipBytes / 1024).toFixed(0)} KB in ${sizes.loginJsFiles} files`,
      ok: sizes.loginJsGzipBytes <= 300 * 1024,
    });
    figures.push({
      name: 'Whole shell after login (all JS the frame loads, gzip)',
      target: 'measured',
      value: `${(sizes.shellJsGzipBytes / 1024).toFixed(0)} KB`,
      ok: true,
    });
  } finally {
    await server.stop();
  }
}

function writeReport(): void {
  const dir = path.join(REPO_ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const when = new Date().toISOString();
  writeFileSync(path.join(dir, 'latest.json'), JSON.stringify({ when, machine: machine(), figures }, null, 2));
  const docFile = path.join(REPO_ROOT, 'docs', 'benchmarks.md');
  const table = [
    '| Measure | Target | Result | |',
    '|---|---|---|---|',
    ...figures.map(
      (f) =>
        `| ${f.name}${f.detail ? `<br><small>${f.detail}</small>` : ''} | ${f.target} | ${f.value} | ${f.ok ? '✅' : '❌'} |`,
    ),
  ].join('\n');
  const section = `<!-- bench:plugin-host:start -->\nLast run: ${when} on ${machine()}.\n\n${table}\n<!-- bench:plugin-host:end -->`;
  let doc = existsSync(docFile) ? readFileSync(docFile, 'utf8') : '# Benchmarks\n';
  doc = /<!-- bench:plugin-host:start -->[\s\S]*<!-- bench:plugin-host:end -->/.test(doc)
    ? doc.replace(/<!-- bench:plugin-host:start -->[\s\S]*<!-- bench:plugin-host:end -->/, section)
    : `${doc.trimEnd()}\n\n## Plugin host\n\n${section}\n`;
  writeFileSync(docFile, doc);
}

async function main(): Promise<void> {
  console.log(`Benchmarks on ${machine()}`);
  // measure what `npm start` runs: the server bundle, rebuilt when its sources changed
  await buildIfNeeded(REPO_ROOT, console.log);
  await prepareDatabase();
  if (wants('startup') || wants('memory')) await startupAndMemory();
  if (wants('me')) await authMe();
  if (wants('bundle')) await bundle();
  for (const figure of figures) {
    console.log(
      `${figure.ok ? '✓' : '✗'} ${figure.name}: ${figure.value} (target ${figure.target})${figure.detail ? ` — ${figure.detail}` : ''}`,
    );
  }
  writeReport();
  console.log('Written to docs/benchmarks.md and bench/results/latest.json');
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
