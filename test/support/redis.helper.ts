import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type Redis from 'ioredis';

/** The Redis the suites share: REDIS_TEST_URL, else the machine's default. */
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string): boolean {
  const { hostname, port } = new URL(url);
  const probe = `require('net').connect(${Number(port || 6379)}, '${hostname}')
    .on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 3000 }).status === 0;
}

/**
 * `describe` when Redis answers, else `describe.skip` with a line saying how to run the suite;
 * with REQUIRE_REDIS=1 (as in .ci/run) a missing Redis fails instead of skipping.
 */
export function describeWithRedis(): jest.Describe {
  if (reachable(REDIS_TEST_URL)) return describe;
  if (process.env.REQUIRE_REDIS === '1')
    throw new Error(`REQUIRE_REDIS=1 but no Redis answers at ${REDIS_TEST_URL}`);
  console.warn(
    `Redis suites skipped: start redis-server on 127.0.0.1:6379 or set REDIS_TEST_URL to run them`,
  );
  return describe.skip;
}

/**
 * A key prefix of this suite's own (REDIS_KEY_PREFIX): suites use the database REDIS_TEST_URL
 * names, possibly shared with other runs, and touch only keys under their prefix.
 */
export function runKeyPrefix(suite: string): string {
  return `test:${suite}:${process.pid}:${randomUUID()}:`;
}

/** Deletes every key under `prefix`, and nothing else (SCAN, not KEYS or FLUSHDB). */
export async function deleteKeys(admin: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const keys of admin.scanStream({ match: `${prefix}*`, count: 500 })) {
    const batch = keys as string[];
    if (batch.length > 0) deleted += await admin.unlink(...batch);
  }
  return deleted;
}

/**
 * A port free on 127.0.0.1 now (listen(0), then closed), for a server the test starts itself, such
 * as a private redis-server; another process could take it first, so use it at once.
 */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** A private redis-server the test can kill and restart (the machine's binary, no persistence). */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  child.stdout?.resume();
  return child;
}

/**
 * Kills a redis-server from startRedisServer (SIGKILL, as a crash) and waits for it to exit: how a
 * suite takes the store away mid-test.
 */
export async function stopRedisServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGKILL');
  await once(child, 'exit');
}
