/**
 * What slow readers of `GET /nft/<id>` cost the server's memory, measured on the production build
 * in a child process (its VmRSS in /proc/<pid>/status), not on the measuring process:
 * `npx ts-node --transpile-only test/bench/nft-slow-readers.ts`. Two scenarios, each on a fresh
 * server: READERS connections each asking for a FILE_MB file and then reading one chunk a second
 * (slow, so the send timeout never cuts them), and PIPELINED connections each writing five
 * requests at once and then reading as slowly; a control asks READERS times for a missing file.
 * Prints each one's peak RSS growth over the idle server. Measured six times on 2 busy cores,
 * NFT_FILES_MAX_STREAMS=32: slow readers +23 to +58 MB, pipelined +8 to +48 MB, control +1 to +6 MB;
 * before the cap (every reader streaming) +124 and +129 MB. Noisy: most of the peak is chunks
 * already sent that V8 has not collected yet, which depends on when it runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNftStorageConfig } from '../../src/actions/mint-nft/nft-storage.config';
import { contentIdOf } from '../../src/actions/mint-nft/storage/content-id';
import { LocalDirectoryStore } from '../../src/actions/mint-nft/storage/local-directory.store';
import { buildProduction } from '../support/production.server';
import { freePort } from '../support/redis.helper';
import { NODE_FLAGS } from './bench.specs';

const MB = 1024 * 1024;
const READERS = Number(process.env.READERS ?? 400);
const PIPELINED = Number(process.env.PIPELINED ?? 100);
const FILE_MB = Number(process.env.FILE_MB ?? 5);
/** Extra variables for the server, e.g. `SERVER_ENV='{"NFT_FILES_MAX_STREAMS":"400"}'`. */
const SERVER_ENV = JSON.parse(process.env.SERVER_ENV ?? '{}') as Record<string, string>;
const HOLD_MS = 8_000;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function startServer(
  main: string,
  dir: string,
): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  // As `npm run start:prod` and the container run it.
  const child = spawn(process.execPath, [...NODE_FLAGS, main], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      AUTH_SECRET: 'O+TCHw9ZJr6lHi3ATi5gYR/1A2pMNiuJWd0R6uSo+qI=',
      METRICS_PORT: '0',
      PORT: String(port),
      HOST: '127.0.0.1',
      NFT_STORAGE_DIR: dir,
      NFT_FILES_RATE_LIMIT: '1000000',
      ...SERVER_ENV,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  while (!output.includes('Listening on')) {
    const [event] = await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
    if (typeof event === 'number' || event === null) throw new Error(`server exited: ${output}`);
  }
  return { child, port };
}

/**
 * A connection that writes `requests` at once, then reads one chunk a second: slow enough to
 * hold the server's answer open, never idle long enough for the send timeout. Resolves with the
 * status line of the first answer.
 */
function slowReader(port: number, requests: string[]): Promise<{ socket: Socket; status: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(requests.join('')));
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, status: chunk.toString('latin1').split('\r\n')[0] });
    });
    const timer = setInterval(() => socket.resume(), 1000);
    socket.once('close', () => clearInterval(timer));
  });
}

async function scenario(
  main: string,
  dir: string,
  name: string,
  connections: number,
  requests: string[],
): Promise<void> {
  const { child, port } = await startServer(main, dir);
  try {
    // Warm: the code paths of a full answer loaded and compiled before the baseline.
    for (let n = 0; n < 3; n += 1)
      await (await fetch(`http://127.0.0.1:${port}${'/nft/' + FILE}`)).arrayBuffer();
    const before = await rssOf(child.pid!);
    const readers = await Promise.all(
      Array.from({ length: connections }, () => slowReader(port, requests)),
    );
    let peak = 0;
    const until = Date.now() + HOLD_MS;
    while (Date.now() < until) {
      peak = Math.max(peak, await rssOf(child.pid!));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const statuses = new Map<string, number>();
    for (const { status } of readers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    console.log(
      `${name}: ${connections} connections, RSS ${(before / MB).toFixed(0)} MB idle, peak +${((peak - before) / MB).toFixed(1)} MB;`,
      Object.fromEntries(statuses),
    );
    for (const { socket } of readers) socket.destroy();
  } finally {
    child.kill('SIGKILL');
    await once(child, 'exit').catch(() => undefined);
  }
}

let FILE = '';

async function main(): Promise<void> {
  // BENCH_MAIN: an existing build's main.js, kept (to measure again without compiling again).
  const build = process.env.BENCH_MAIN
    ? { main: process.env.BENCH_MAIN, remove: (): Promise<void> => Promise.resolve() }
    : await buildProduction();
  const dir = await mkdtemp(join(tmpdir(), 'nft-bench-'));
  try {
    const bytes = Buffer.alloc(FILE_MB * MB, 7);
    FILE = contentIdOf(bytes, 'image/png');
    await new LocalDirectoryStore(loadNftStorageConfig({ NFT_STORAGE_DIR: dir })).put(
      FILE,
      bytes,
      'image/png',
    );
    const get = `GET /nft/${FILE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    // The control: as many connections asking for a file that is not there (404, no stream).
    const missing = `GET /nft/${'0'.repeat(64)}.png HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    await scenario(build.main, dir, 'no file (404)', READERS, [missing]);
    await scenario(build.main, dir, 'slow readers', READERS, [get]);
    await scenario(build.main, dir, 'pipelined x5', PIPELINED, Array(5).fill(get) as string[]);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await build.remove();
  }
}

void main();
