/**
 * Server processes of the topology test: the production bundle (`.build/server/main.mjs`, rebuilt when
 * older than its sources, as the bundle tests do) started with a role, each on a loopback address of its
 * own (Linux routes all of 127/8 to `lo`), as separate hosts would be.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { REPO_ROOT } from '@balcao/server';
import { buildServer } from '../../../scripts/build-server';
import { newestMtime, serverTarget } from '../../../scripts/lib/build';

/** The bundle, built first when a source is newer than it. */
export async function bundleUpToDate(): Promise<string> {
  const target = serverTarget(REPO_ROOT);
  const built = newestMtime(target.output);
  if (built === 0 || target.sources.some((source) => newestMtime(source) > built)) await buildServer();
  return target.output;
}

export interface ServerProcess {
  name: string;
  role: 'web' | 'worker';
  host: string;
  /** The port its probes answer on: `PORT` for web, `WORKER_PORT` for worker. */
  port: number;
  url: string;
  child: ChildProcess;
  /** The last 30 KB it printed (stdout and stderr), for a failing test's message. */
  output(): string;
  /** Resolves with its exit code (or signal) once it has ended. */
  exited: Promise<number | string>;
  /** Resolves once `/readyz` answers 200; rejects if it exits first or takes over `timeoutMs`. */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<number | string>;
  kill9(): Promise<number | string>;
}

export function startProcess(
  bundle: string,
  spec: { name: string; role: 'web' | 'worker'; host: string; port: number },
  env: Record<string, string>,
): ServerProcess {
  const child = spawn(process.execPath, [bundle], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...env,
      ROLE: spec.role,
      HOST: spec.host,
      ...(spec.role === 'web' ? { PORT: String(spec.port) } : { WORKER_PORT: String(spec.port) }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const read = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-30_000);
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? '')));
  const url = `http://${spec.host}:${spec.port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    ...spec,
    url,
    child,
    output: () => output,
    exited,
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (!alive()) throw new Error(`${spec.name} exited (${child.exitCode ?? child.signalCode}) before ready:\n${output}`);
        const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
          (res) => res.status === 200,
          () => false,
        );
        if (ok) return;
        if (Date.now() > deadline) throw new Error(`${spec.name} not ready within ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      return exited;
    },
    async kill9() {
      if (alive()) child.kill('SIGKILL');
      return exited;
    },
  };
}
