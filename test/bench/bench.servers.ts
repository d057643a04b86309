import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { LoadResult } from './load';

export interface ServerSpec {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

const TS = ['-r', 'ts-node/register/transpile-only'];
const OUT_OF_REACH = { RATE_LIMIT_IP_MAX: '1000000000', RATE_LIMIT_USER_MAX: '1000000000' };

/** The four servers measured: the production build (memory, then Redis limits) and two baselines. */
export const SERVERS: ServerSpec[] = [
  {
    name: 'nest (memory)',
    args: ['dist/main.js'],
    env: { NODE_ENV: 'production', ...OUT_OF_REACH },
  },
  {
    name: 'nest (redis)',
    args: ['dist/main.js'],
    env: { NODE_ENV: 'production', REDIS_URL: 'redis://127.0.0.1:6379/15', ...OUT_OF_REACH },
  },
  { name: 'bare fastify', args: [...TS, 'test/bench/bare-fastify.server.ts'] },
  { name: 'express 5', args: [...TS, 'test/bench/express.server.ts'] },
];

/** On this 2-core machine the server gets core 0 and the load core 1, where taskset works. */
export const canPin = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const pinned = (core: number, args: string[]): [string, string[]] =>
  canPin ? ['taskset', ['-c', String(core), process.execPath, ...args]] : [process.execPath, args];

export interface Running {
  child: ChildProcess;
  bootMs: number;
  url: string;
}

export const BODY = JSON.stringify({ params: { operation: 'add', a: 2, b: 3 } });

export async function startServer(spec: ServerSpec, port: number): Promise<Running> {
  const url = `http://127.0.0.1:${port}/api/calculator`;
  const started = performance.now();
  const [command, args] = pinned(0, spec.args);
  const child = spawn(command, args, {
    // Metrics on (as in production) on a port of each server's own: two may run at once.
    env: {
      ...process.env,
      ...spec.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(port + 1),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 3000; attempt++) {
    if (child.exitCode !== null) throw new Error(`${spec.name} exited with ${child.exitCode}`);
    const ok = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
    })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return { child, bootMs: performance.now() - started, url };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${spec.name} never answered`);
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

export async function runLoad(
  url: string,
  duration: number,
  connections = 50,
): Promise<LoadResult> {
  const [command, args] = pinned(1, [
    ...TS,
    'test/bench/load.ts',
    JSON.stringify({ url, connections, duration, body: BODY }),
  ]);
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as LoadResult;
}
