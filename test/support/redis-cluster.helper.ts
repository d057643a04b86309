import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './redis.helper';

/** One redis-server (or sentinel) this helper started: its port, process and directory. */
export interface RedisNode {
  port: number;
  child: ChildProcess;
  dir: string;
}

/**
 * Whether this machine has `redis-server` and `redis-cli`; the cluster and Sentinel suites skip
 * with this reason where it does not, and fail instead under CI=true.
 */
export function describeWithRedisServer(): jest.Describe {
  const found = ['redis-server', 'redis-cli'].every(
    (bin) => spawnSync(bin, ['--version'], { timeout: 5000 }).status === 0,
  );
  if (found) return describe;
  if (process.env.CI === 'true') throw new Error('CI=true but redis-server/redis-cli are missing');
  console.warn(
    'Redis Cluster and Sentinel suites skipped: redis-server and redis-cli are not on PATH (apt-get install redis-server)',
  );
  return describe.skip;
}

/**
 * Starts one redis-server with these extra arguments in a temporary directory of its own;
 * `before` goes first (a sentinel's configuration file and `--sentinel`), and `ready` is the line
 * it prints once it serves.
 */
export async function startNode(
  args: string[] = [],
  {
    before = [],
    ready = 'Ready to accept connections',
  }: { before?: string[]; ready?: string } = {},
): Promise<RedisNode> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-node-'));
  const chosen = await freePort();
  const child = spawn(
    'redis-server',
    [
      ...before.map((arg) => arg.replace('<dir>', dir)),
      ...args,
      '--port',
      String(chosen),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await readyLine(child, ready);
  return { port: chosen, child, dir };
}

/** Waits for a line the server prints once it listens; rejects if it exits first. */
async function readyLine(child: ChildProcess, line: string): Promise<void> {
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${seen}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4000);
      if (seen.includes(line)) resolve();
    });
  });
  child.removeAllListeners('exit');
  child.stdout?.removeAllListeners('data');
  child.stdout?.resume();
}

/** Stops every node (SIGKILL) and removes its directory. */
export async function stopNodes(nodes: readonly RedisNode[]): Promise<void> {
  await Promise.all(
    nodes.map(async ({ child, dir }) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      rmSync(dir, { recursive: true, force: true });
    }),
  );
}

/** Runs redis-cli with these arguments; its output, or a throw with it when it fails. */
export function redisCli(args: string[]): string {
  const run = spawnSync('redis-cli', args, { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) throw new Error(`redis-cli ${args.join(' ')}: ${run.stderr}${run.stdout}`);
  return run.stdout;
}

/** Asks `check` every 50 ms until it holds (or `timeoutMs` passes): a wait on state, not a sleep. */
export async function until(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One command on a node, on a connection of its own (closed after). */
export async function ask(port: number, ...command: string[]): Promise<string> {
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    const answer = await client.call(command[0], ...command.slice(1));
    return Array.isArray(answer) ? JSON.stringify(answer) : String(answer);
  } finally {
    client.disconnect();
  }
}

/** The `field:value` lines of an INFO or CLUSTER INFO answer. */
export const infoField = (text: string, field: string): string | undefined =>
  new RegExp(`^${field}:(.*)$`, 'm').exec(text)?.[1]?.trim();

/** Writes a file in a node's directory (a sentinel's configuration). */
export const writeIn = (dir: string, name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
