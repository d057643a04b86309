/**
 * `npm run bench`: the production server against bare Fastify and Express on the calculator,
 * one server at a time on loopback, in alternating rounds; prints the table README shows.
 * Options: --rounds 3 --duration 10 --warmup 3 --sustain 60 (0 skips the decay run).
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { canPin, rssMb, runLoad, SERVERS, startServer, stopServer } from './bench.servers';
import { verifySameAnswers } from './bench.verify';
import type { LoadResult } from './load';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    sustain: { type: 'string', default: '60' },
    'no-build': { type: 'boolean', default: false },
  },
});
const [rounds, duration, warmup, sustain] = [
  values.rounds,
  values.duration,
  values.warmup,
  values.sustain,
].map(Number);
const PORT = 3190;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Row {
  rps: number[];
  p50: number[];
  p99: number[];
  boot: number[];
  rss: number;
}

async function measure(): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>(
    SERVERS.map((s) => [s.name, { rps: [], p50: [], p99: [], boot: [], rss: 0 }]),
  );
  const reference = await startServer(SERVERS[0], PORT + 10);
  try {
    for (const spec of SERVERS.slice(1)) {
      const running = await startServer(spec, PORT);
      try {
        await verifySameAnswers(reference.url, running.url, spec.name);
      } finally {
        await stopServer(running);
      }
    }
  } finally {
    await stopServer(reference);
  }
  console.log('answers match the production server: ok');
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? SERVERS : [...SERVERS].reverse();
    for (const spec of order) {
      const running = await startServer(spec, PORT);
      try {
        await runLoad(running.url, warmup);
        const figures: LoadResult = await runLoad(running.url, duration);
        if (figures.non2xx > 0 || figures.errors > 0)
          throw new Error(`${spec.name}: ${figures.non2xx} non-2xx, ${figures.errors} errors`);
        const row = rows.get(spec.name)!;
        row.rps.push(figures.rps);
        row.p50.push(figures.p50);
        row.p99.push(figures.p99);
        row.boot.push(running.bootMs);
        row.rss = rssMb(running);
        console.log(
          `round ${round} ${spec.name}: ${Math.round(figures.rps)} req/s, p99 ${figures.p99} ms`,
        );
      } finally {
        await stopServer(running);
      }
    }
  }
  return rows;
}

async function decay(): Promise<string> {
  const running = await startServer(SERVERS[0], PORT);
  try {
    const { perSecond } = await runLoad(running.url, sustain);
    const first = mean(perSecond.slice(0, 10));
    const last = mean(perSecond.slice(-10));
    const change = ((last - first) / first) * 100;
    return `sustained ${sustain} s on one IP key: first 10 s ${Math.round(first)} req/s, last 10 s ${Math.round(last)} req/s (${change.toFixed(1)} %), RSS after ${rssMb(running)} MB`;
  } finally {
    await stopServer(running);
  }
}

async function main(): Promise<void> {
  if (!values['no-build']) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model}, node ${process.version}, pinning ${canPin ? 'server core 0, load core 1' : 'unavailable'}`,
  );
  const rows = await measure();
  const fastify = median(rows.get('bare fastify')!.rps);
  const express = median(rows.get('express 5')!.rps);
  const fastifyP99 = median(rows.get('bare fastify')!.p99);
  console.log(
    `\n| server | req/s | p50 ms | p99 ms | vs fastify | vs express | p99 vs fastify | boot ms | RSS MB |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  for (const [name, row] of rows) {
    const rps = median(row.rps);
    console.log(
      `| ${name} | ${Math.round(rps)} | ${median(row.p50)} | ${median(row.p99)} | ${(rps / fastify).toFixed(2)} | ${(rps / express).toFixed(2)} | ${(median(row.p99) / fastifyP99).toFixed(2)} | ${Math.round(median(row.boot))} | ${row.rss} |`,
    );
  }
  const memory = median(rows.get('nest (memory)')!.rps);
  const redis = median(rows.get('nest (redis)')!.rps);
  console.log(`\nRedis limits vs memory: ${(((redis - memory) / memory) * 100).toFixed(1)} %`);
  if (sustain > 0) console.log(await decay());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
