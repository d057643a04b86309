/** The table and the target lines `npm run bench` prints, from the rows measured. */
import { GENERATED_ACTIONS, type ServerSpec } from './bench.specs';
import { median } from './bench.stats';

export interface Row {
  spec: ServerSpec;
  rps: number[];
  p50: number[];
  p99: number[];
  boot: number[];
  rss: number;
  /** Non-2xx answers and errors (timeouts, resets), summed over the rounds. */
  non2xx: number;
  errors: number;
  /** Requests answered, summed over the rounds. */
  requests: number;
}

const ratio = (a: number, b: number | undefined): string =>
  b === undefined ? '–' : (a / b).toFixed(2);
const change = (a: number, b: number): string => {
  const pct = ((a - b) / b) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)} %`;
};

export function printTable(rows: Map<string, Row>): void {
  const figure = (id: string, pick: (row: Row) => number[]): number | undefined => {
    const row = rows.get(id);
    return row && median(pick(row));
  };
  const fastify = figure('fastify', (r) => r.rps);
  const express = figure('express', (r) => r.rps);
  const fastifyP99 = figure('fastify', (r) => r.p99);
  console.log(
    `\n| server | req/s | p50 ms | p99 ms | vs fastify | vs express | p99 vs fastify | boot ms | RSS MB |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|`);
  for (const row of rows.values()) {
    const [rps, p99] = [median(row.rps), median(row.p99)];
    // Ratios compare like loads: the 2000-connection row has no 2000-connection baseline.
    const alike = (row.spec.connections ?? 50) === 50;
    console.log(
      `| ${row.spec.name} | ${Math.round(rps)} | ${median(row.p50)} | ${p99} | ${ratio(rps, alike ? fastify : undefined)} | ${ratio(rps, alike ? express : undefined)} | ${ratio(p99, alike ? fastifyP99 : undefined)} | ${Math.round(median(row.boot))} | ${row.rss} |`,
    );
  }
}

/** One line per target of issue 14 whose rows were measured. */
export function printTargets(rows: Map<string, Row>): void {
  const base = rows.get('memory');
  const against = (id: string, label: string, target: string): void => {
    const row = rows.get(id);
    if (!row || !base) return;
    const [rps, baseRps] = [median(row.rps), median(base.rps)];
    console.log(
      `${label}: req/s ${change(rps, baseRps)}, p99 ${median(row.p99)} ms against ${median(base.p99)} ms (${change(median(row.p99), median(base.p99))}); target: ${target}`,
    );
  };
  console.log('');
  const floor = rows.get('floor');
  if (floor && base) {
    const [rps, p99] = [median(base.rps) / median(floor.rps), median(base.p99) / median(floor.p99)];
    console.log(
      `full pipeline vs ${floor.spec.name}: ${rps.toFixed(2)} × its req/s, ${p99.toFixed(2)} × its p99; target (issue 45): at least 1.2 ×, p99 no worse`,
    );
  }
  const bare = rows.get('nest-bare');
  if (bare && floor) {
    const share = median(floor.rps) / median(bare.rps);
    console.log(
      `${floor.spec.name} vs ${bare.spec.name}: ${share.toFixed(2)} × its req/s; 1.2 × the floor would be ${(1.2 * share).toFixed(2)} × it`,
    );
  }
  const card = rows.get('card');
  if (card && base) {
    const [rps, p99] = [median(base.rps) / median(card.rps), median(base.p99) / median(card.p99)];
    const share = floor
      ? `; the card's stock packages serve ${(median(card.rps) / median(floor.rps)).toFixed(2)} × the floor`
      : '';
    console.log(
      `full pipeline vs ${card.spec.name}: ${rps.toFixed(2)} × its req/s, ${p99.toFixed(2)} × its p99${share}`,
    );
  }
  against('redis', 'Redis limits vs memory', 'at most 15 % below');
  against('send-token', 'send-token (simulated) vs calculator', 'within 10 % before simulation');
  against('send-token-unchecked', 'send-token (TX_SIMULATE=off) vs calculator', 'within 10 %');
  const [stub, unchecked] = [rows.get('send-stub'), rows.get('send-stub-unchecked')];
  if (stub && unchecked) {
    const share = median(stub.rps) / median(unchecked.rps);
    console.log(
      `send-token simulated vs unchecked, instant stub node: ${share.toFixed(2)} × its req/s, p50 ${median(stub.p50)} against ${median(unchecked.p50)} ms; target: at least 0.8 ×`,
    );
  }
  against('actions', `+${GENERATED_ACTIONS} actions vs shipped`, 'within 5 %');
  against('keys', '1M rate keys vs shipped', 'within 5 %');
  const conns = rows.get('conns');
  if (conns) {
    console.log(
      `${conns.spec.connections} connections: ${conns.errors} errors, ${conns.non2xx} non-2xx in ${conns.requests} answers over ${conns.rps.length} round(s), p99 ${median(conns.p99)} ms; target: no errors`,
    );
  }
}

/**
 * A bench part run alone (`npx ts-node --transpile-only test/bench/<part>.ts`): its report
 * printed, the process ended with 0, or 1 and the error.
 */
export function printAlone(run: () => Promise<string>): void {
  run().then(
    (text) => {
      console.log(text);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
