/**
 * `npm run bench`: the production server against bare Fastify and Express on the calculator,
 * and the production server under each "flat as it grows" condition of issue 14 (send-token,
 * 200 more actions, 1M rate-limit keys held, 2000 connections), one server at a time on
 * loopback, in alternating rounds; prints the table docs/performance.md shows and a line per target.
 * Options: --rounds 3 --duration 10 --warmup 3 --sustain 60 (0 skips the decay run),
 * --boots 7 (boots of each server in the boot row, boot-time.ts; 0 skips it),
 * --only memory,fastify (row ids: see bench.specs.ts; `boot` for the boot row), --no-build,
 * --no-round-trips (skips the round trips per transaction answer behind a 100 ms proxy:
 * round-trips.ts).
 */
import { followerCost } from './follower-cost';
import { largeBlockCost } from './follower-large-block';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { compileEntries } from './bench.entries';
import { printTable, printTargets, type Row } from './bench.report';
import {
  canPin,
  cpuMs,
  rssMb,
  runLoad,
  SERVERS,
  type ServerSpec,
  startServer,
  stopServer,
} from './bench.servers';
import { BENCH_CHAIN_PORT, TS } from './bench.specs';
import { roundTrips } from './round-trips';
import { bootTimes } from './boot-time';
import { startStubNode } from './bench.stub';
import { verifySameAnswers } from './bench.verify';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    sustain: { type: 'string', default: '60' },
    boots: { type: 'string', default: '7' },
    only: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    'no-round-trips': { type: 'boolean', default: false },
  },
});
const [rounds, duration, warmup, sustain, boots] = [
  values.rounds,
  values.duration,
  values.warmup,
  values.sustain,
  values.boots,
].map(Number);
const PORT = 3190;

const only = values.only?.split(',').map((id) => id.trim());
const unknown = only?.filter((id) => id !== 'boot' && !SERVERS.some((s) => s.id === id)) ?? [];
if (unknown.length > 0) {
  console.error(
    `unknown rows: ${unknown.join(', ')}; rows: ${SERVERS.map((s) => s.id).join(', ')}, boot`,
  );
  process.exit(2);
}
const chosen = only ? SERVERS.filter((s) => only.includes(s.id)) : SERVERS;
const bootRow = boots > 0 && (!only || only.includes('boot'));
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Every calculator server must answer as the production server does; send-token answers 200. */
async function verify(): Promise<void> {
  const reference = await startServer(SERVERS[0], PORT + 10);
  try {
    for (const spec of chosen) {
      const running = await startServer(spec, PORT);
      try {
        if (!spec.target)
          await verifySameAnswers(reference.url, running.url, spec.name, spec.stockRefusals);
      } finally {
        await stopServer(running);
      }
    }
  } finally {
    await stopServer(reference);
  }
  console.log('answers match the production server: ok');
}

async function measureOnce(spec: ServerSpec, row: Row, round: number): Promise<void> {
  const running = await startServer(spec, PORT);
  try {
    await runLoad(running, warmup, spec.connections);
    const cpuBefore = cpuMs(running);
    const figures = await runLoad(running, duration, spec.connections);
    const cpuPerAnswer = (cpuMs(running) - cpuBefore) / figures.total;
    if (!spec.countErrors && (figures.non2xx > 0 || figures.errors > 0))
      throw new Error(`${spec.name}: ${figures.non2xx} non-2xx, ${figures.errors} errors`);
    row.rps.push(figures.rps);
    row.p50.push(figures.p50);
    row.p99.push(figures.p99);
    row.boot.push(running.bootMs);
    row.rss = rssMb(running);
    row.non2xx += figures.non2xx;
    row.errors += figures.errors;
    row.requests += figures.total;
    const codes = Object.entries(figures.errorCodes).map(([code, n]) => `${n} ${code}`);
    const faults = spec.countErrors
      ? `, ${figures.errors} errors${codes.length ? ` (${codes.join(', ')})` : ''}, ${figures.non2xx} non-2xx, ${figures.unanswered} connections never answered`
      : '';
    console.log(
      `round ${round} ${spec.name}: ${Math.round(figures.rps)} req/s, server CPU ${cpuPerAnswer.toFixed(3)} ms per answer, p99 ${figures.p99} ms, boot ${Math.round(running.bootMs)} ms${faults}`,
    );
  } finally {
    await stopServer(running);
  }
}

async function measure(): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>(
    chosen.map((spec) => [
      spec.id,
      { spec, rps: [], p50: [], p99: [], boot: [], rss: 0, non2xx: 0, errors: 0, requests: 0 },
    ]),
  );
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? chosen : [...chosen].reverse();
    for (const spec of order) await measureOnce(spec, rows.get(spec.id)!, round);
  }
  return rows;
}

async function decay(): Promise<string> {
  const running = await startServer(SERVERS[0], PORT);
  try {
    const { perSecond } = await runLoad(running, sustain);
    const first = mean(perSecond.slice(0, 10));
    const last = mean(perSecond.slice(-10));
    const change = ((last - first) / first) * 100;
    return `sustained ${sustain} s on one IP key: first 10 s ${Math.round(first)} req/s, last 10 s ${Math.round(last)} req/s (${change.toFixed(1)} %), RSS after ${rssMb(running)} MB`;
  } finally {
    await stopServer(running);
  }
}

/** The node the send-token row's simulation asks: a local chain as Fuji, in its own process. */
async function startChain(): Promise<ChildProcess> {
  const chain = spawn(
    process.execPath,
    [...TS, 'src/testing/evm/dev-chain.ts', '43113', String(BENCH_CHAIN_PORT)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let text = '';
  chain.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  while (!text.includes('funded accounts')) {
    const [event] = await Promise.race([once(chain.stdout, 'data'), once(chain, 'exit')]);
    if (event === undefined || chain.exitCode !== null) throw new Error('the bench chain stopped');
  }
  return chain;
}

async function main(): Promise<void> {
  const chain = chosen.some((spec) => spec.needsChain) ? await startChain() : undefined;
  const stub = chosen.some((spec) => spec.needsStub) ? await startStubNode() : undefined;
  try {
    await bench();
  } finally {
    chain?.kill('SIGINT');
    await stub?.stop();
  }
}

async function bench(): Promise<void> {
  if (!values['no-build']) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  compileEntries();
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, node ${process.version}, pinning ${canPin ? 'server core 0, load core 1' : 'unavailable'}`,
  );
  if (chosen.length > 0) {
    await verify();
    const rows = await measure();
    printTable(rows);
    printTargets(rows);
  }
  if (bootRow) console.log(await bootTimes(boots));
  if (sustain > 0) console.log(await decay());
  console.log(await followerCost());
  console.log(await largeBlockCost());
  if (!values['no-round-trips']) console.log(await roundTrips());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
