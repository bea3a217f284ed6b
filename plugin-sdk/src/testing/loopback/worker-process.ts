/**
 * A real worker process of a test app: the server started from source with `ROLE=worker` on the test app's
 * database and Redis prefix, with the loopback channel loaded — what `kill -9` hits in the crash tests and
 * the benches. It inherits this process's environment, so the provider stand-in's URL that `loopbackApp`
 * set reaches its loopback channel too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '@balcao/server';
import type { TestApp } from '../index';
import { LOOPBACK_PLUGIN } from './plugin';

/** A worker process started by `startWorker`. */
export interface WorkerProcess {
  child: ChildProcess;
  /** What it printed (stdout and stderr), for a failing test's message. */
  output(): string;
  /** Resolves once the process is up (the core's "Balcão ready" log line). */
  ready: Promise<void>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts a worker process on `t`'s database and Redis prefix; `env` adds or overrides variables. */
export function startWorker(t: TestApp, env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'src', 'main.ts')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      ROLE: 'worker',
      DATABASE_URL: t.config.databaseUrl,
      REDIS_URL: t.config.redisUrl,
      REDIS_PREFIX: t.config.redisPrefix,
      STORAGE_DIR: t.config.storageDir,
      JWT_SECRET: 'worker-secret-'.padEnd(48, 'x'),
      MIGRATE_ON_START: 'false',
      BALCAO_PLUGINS: LOOPBACK_PLUGIN,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let resolveReady: () => void = () => {};
  let rejectReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  const read = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
    if (output.includes('Balcão ready')) resolveReady();
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  child.once('exit', (code, signal) => rejectReady(new Error(`worker exited (${code ?? signal}) before ready:\n${output}`)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    ready,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
