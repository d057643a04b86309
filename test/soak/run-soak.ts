/**
 * `npm run soak -- --minutes N [--rate 200]`: a steady request rate over every action the
 * service publishes, against the production build, reporting memory at intervals. Each reading
 * follows a full collection (test/soak/heap-probe.js), so it shows live memory rather than
 * garbage not yet reclaimed. Passes when resident memory after warm-up grows by no more than
 * --max-growth MB (default 8).
 */
import { isDynamicAction } from '../../src/contract/chain-action.types';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import type { DynamicAction, MiniAppMetadata } from '../../src/contract/action.types';
import type { MiniAppIndex } from '../../src/contract/mini-app.types';
import { validValue } from '../fuzz/param.arbitraries';
import { startFakeUpstreams } from './fake-upstreams';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '1' },
    rate: { type: 'string', default: '200' },
    interval: { type: 'string', default: '10' },
    'max-growth': { type: 'string', default: '8' },
    'no-build': { type: 'boolean', default: false },
  },
});
const [minutes, rate, interval, maxGrowth] = [
  values.minutes,
  values.rate,
  values.interval,
  values['max-growth'],
].map(Number);
const PORT = 3290;
const BASE = `http://127.0.0.1:${PORT}`;

const mb = (bytes: number): number => Math.round(bytes / 104857.6) / 10;

/** Asks the server's heap probe for a reading after a full collection. */
/** Every action, as the platform reads it: from each mini-app document the index lists. */
async function publishedActions(): Promise<DynamicAction[]> {
  const index = (await (await fetch(`${BASE}/api/metadata`)).json()) as MiniAppIndex;
  const documents = await Promise.all(
    index.miniApps.map(async ({ id }) => {
      const response = await fetch(`${BASE}/api/mini-apps/${id}`);
      return (await response.json()) as MiniAppMetadata;
    }),
  );
  return documents.flatMap((document) => document.actions.filter(isDynamicAction));
}

function readMemory(server: ChildProcess): Promise<{ rss: number; heapUsed: number }> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      const line = /heap-probe (\{.*\})/.exec(chunk.toString());
      if (!line) return;
      server.stdout?.off('data', onData);
      const { rss, heapUsed } = JSON.parse(line[1]) as { rss: number; heapUsed: number };
      resolve({ rss: mb(rss), heapUsed: mb(heapUsed) });
    };
    server.stdout?.on('data', onData);
    server.kill('SIGUSR2');
  });
}

function randomAddress(): string {
  return `0x${Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')}`;
}

async function main(): Promise<void> {
  if (!values['no-build'] && spawnSync('npm', ['run', 'build'], { stdio: 'inherit' }).status !== 0)
    throw new Error('build failed');
  const upstream = await startFakeUpstreams();
  const server = spawn(
    process.execPath,
    ['--expose-gc', '-r', './test/soak/heap-probe.js', 'dist/main.js'],
    {
      env: {
        ...process.env,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        AUTH_SECRET: '65X90yEh3/bTCtyc9QhnKh5RAFmrPoCG7o3EcH511KQ=',
        RATE_LIMIT_IP_MAX: '1000000000',
        RATE_LIMIT_USER_MAX: '1000000000',
        RATE_LIMIT_USER_WINDOW_SECONDS: '5',
        CACHE_TTL_SECONDS: '2',
        WEATHER_GEOCODING_URL: `${upstream.base}/geo`,
        WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
        // Chain actions answer their declared RPC failure fast: nothing leaves loopback.
        RPC_URL_31337: 'http://127.0.0.1:9',
        RPC_URL_43113: 'http://127.0.0.1:9',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  server.stdout?.resume();
  try {
    let actions: DynamicAction[] = [];
    for (let i = 0; i < 300 && actions.length === 0; i++) {
      actions = await publishedActions().catch(
        () => new Promise<DynamicAction[]>((resolve) => setTimeout(() => resolve([]), 100)),
      );
    }
    const statuses = new Map<number, number>();
    const send = (action: DynamicAction): void => {
      const params = Object.fromEntries(
        (action.params ?? []).map((p) => [p.name, fc.sample(validValue(p), 1)[0]]),
      );
      void fetch(`${BASE}${action.path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-user-address': randomAddress(),
          'x-source-chain': String(action.chains.source),
        },
        body: JSON.stringify({ params }),
      })
        .then(async (r) => {
          await r.arrayBuffer();
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        })
        .catch(() => statuses.set(0, (statuses.get(0) ?? 0) + 1));
    };
    const tick = setInterval(() => {
      for (let i = 0; i < rate / 20; i++) send(actions[Math.floor(Math.random() * actions.length)]);
    }, 50);
    const samples: number[] = [];
    const end = Date.now() + minutes * 60_000;
    while (Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, interval * 1000));
      const memory = await readMemory(server);
      samples.push(memory.rss);
      const counts = [...statuses].map(([s, n]) => `${s}:${n}`).join(' ');
      console.log(
        `${((minutes * 60_000 - (end - Date.now())) / 1000).toFixed(0)} s  RSS ${memory.rss} MB  heap ${memory.heapUsed} MB  statuses ${counts}`,
      );
    }
    clearInterval(tick);
    const warm = samples[Math.min(samples.length - 1, Math.ceil(30 / interval))];
    const growth = Math.round(((samples.at(-1) ?? warm) - warm) * 10) / 10;
    console.log(
      `soak: ${minutes} min at ${rate} req/s over ${actions.length} actions; RSS after warm-up ${warm} MB, at end ${samples.at(-1)} MB, growth ${growth} MB`,
    );
    if (growth > maxGrowth) throw new Error(`memory grew ${growth} MB (> ${maxGrowth} MB)`);
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
    upstream.server.close();
  }
}

main().catch((error: unknown) => {
  console.error(`soak: FAILED ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
