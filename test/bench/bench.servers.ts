import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { ENTRY_DIR } from './bench.entries';
import { CALCULATOR, type ServerSpec, type Target } from './bench.specs';
import type { LoadResult } from './load';

export { SERVERS, type ServerSpec } from './bench.specs';

/** On this 2-core machine the server gets core 0 and the load core 1, where taskset works. */
export const canPin = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
/** `node <args>` pinned to `core` (where taskset works): the server core 0, the load core 1. */
export const pinned = (core: number, args: string[]): [string, string[]] =>
  canPin ? ['taskset', ['-c', String(core), process.execPath, ...args]] : [process.execPath, args];

export interface Running {
  child: ChildProcess;
  bootMs: number;
  /** The URL of the row's target (the calculator unless the spec names another). */
  url: string;
  target: Target;
}

/**
 * Starts a server; booted once its target answers 200 (so send-token is checked before load).
 * `under`: a command to run it under instead of pinning it (valgrind), with its own environment.
 */
export async function startServer(
  spec: ServerSpec,
  port: number,
  under?: { command: string[]; nodeOptions: string[]; env: Record<string, string> },
): Promise<Running> {
  const target = spec.target ?? CALCULATOR;
  const url = `http://127.0.0.1:${port}${target.path}`;
  const started = performance.now();
  const [command, args] = under
    ? [
        under.command[0],
        [...under.command.slice(1), process.execPath, ...under.nodeOptions, ...spec.args],
      ]
    : pinned(0, spec.args);
  const child = spawn(command, args, {
    // Metrics on (as in production) on a port of each server's own: two may run at once.
    env: {
      ...process.env,
      ...spec.env,
      ...under?.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(port + 1),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let last = 'no answer';
  // A minute, or five under valgrind, which runs the boot some fifty times slower.
  for (let attempt = 0; attempt < (under ? 30_000 : 6000); attempt++) {
    if (child.exitCode !== null) throw new Error(`${spec.name} exited with ${child.exitCode}`);
    const status = await fetch(url, { method: 'POST', headers: target.headers, body: target.body })
      .then(async (r) => (r.status === 200 ? 200 : `${r.status} ${await r.text()}`))
      .catch(() => 'no answer');
    if (status === 200) return { child, bootMs: performance.now() - started, url, target };
    last = status;
    if (last !== 'no answer') break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await stopServer({ child, bootMs: 0, url, target });
  throw new Error(`${spec.name} never answered ${target.path} with 200: ${last}`);
}

export async function stopServer({ child }: Running): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** Resident memory of the server process (the node child when pinned through taskset, which execs it). */
export function rssMb({ child }: Running): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round(kb / 102.4) / 10;
}

/** CPU time (user + system) the server process has used so far, in milliseconds (/proc ticks). */
export function cpuMs({ child }: Running): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

export async function runLoad(
  { url, target }: Running,
  duration: number,
  connections = 50,
): Promise<LoadResult> {
  const [command, args] = pinned(1, [
    `${ENTRY_DIR}/load.js`,
    JSON.stringify({ url, connections, duration, body: target.body, headers: target.headers }),
  ]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as LoadResult;
}
