/**
 * `npm run bench:memory`: what a flood of distinct keys costs the in-memory stores. Builds the
 * rate-limit store and the result cache exactly as the service does without REDIS_URL (default
 * configuration), pushes 1,000,000 distinct keys through each one's real API (per-IP counters
 * keyed like the throttler's, weather results keyed per city), forces a full collection and
 * prints resident memory, heap and the entries kept. Options: --keys 1000000. The caps come from
 * RATE_LIMIT_MAX_KEYS and CACHE_MAX_ENTRIES like the service's (set them to the key count to see
 * what unbounded stores would hold).
 */
import { parseArgs } from 'node:util';
import { loadCacheConfig } from '../../src/config/cache.config';
import { loadThrottleConfig } from '../../src/config/throttle.config';
import { createCacheStore } from '../../src/outbound/cache/cache-store.factory';
import type { MemoryCacheStore } from '../../src/outbound/cache/cache.store';
import type { MemoryThrottlerStorage } from '../../src/kit/throttling/memory-throttler.storage';
import { createThrottlerStorage } from '../../src/kit/throttling/throttler-storage.factory';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '1000000' } } });
const KEYS = Number(values.keys);

const collect = globalThis.gc;
if (!collect) {
  console.error('Run with node --expose-gc (npm run bench:memory does)');
  process.exit(1);
}

interface Reading {
  rssMb: number;
  /** Live objects after a full collection: what the stores really hold. */
  heapMb: number;
  /** What V8 has reserved for its heap; RSS also counts memory freed but not yet given back. */
  heapTotalMb: number;
}

function reading(): Reading {
  collect?.();
  collect?.();
  const { rss, heapUsed, heapTotal } = process.memoryUsage();
  return { rssMb: rss / 2 ** 20, heapMb: heapUsed / 2 ** 20, heapTotalMb: heapTotal / 2 ** 20 };
}

const mb = (value: number): string => value.toFixed(1).padStart(7);

/** A distinct client per i, as long as the sha256 hex key @nestjs/throttler makes of a tracker. */
const throttlerKey = (i: number): string => i.toString(16).padStart(64, '0');

/** About the size of one cached weather answer. */
const WEATHER = JSON.stringify({
  city: 'Some city',
  country: 'Some country',
  latitude: 48.85341,
  longitude: 2.3488,
  temperature: 12.3,
  windSpeed: 4.5,
  condition: 'Overcast',
  observedAt: '2026-11-22T12:00:00.000Z',
});

async function main(): Promise<void> {
  const throttle = loadThrottleConfig(process.env);
  const cacheConfig = loadCacheConfig(process.env);
  const counters = createThrottlerStorage(throttle, null) as MemoryThrottlerStorage;
  const cache = createCacheStore(cacheConfig, null) as MemoryCacheStore;
  const rows: [string, Reading, string][] = [['empty stores', reading(), '']];

  let started = performance.now();
  const hourMs = 3_600_000;
  for (let i = 0; i < KEYS; i++)
    await counters.increment(throttlerKey(i), hourMs, 100, hourMs, 'user');
  let perOp = ((performance.now() - started) * 1000) / KEYS;
  rows.push([
    `+ ${KEYS} rate-limit keys`,
    reading(),
    `${counters.size} counters kept (cap ${throttle.maxKeys}), ${perOp.toFixed(2)} µs/increment`,
  ]);

  started = performance.now();
  const ttlMs = cacheConfig.ttlSeconds * 1000;
  for (let i = 0; i < KEYS; i++) await cache.set(`cache:weather:city ${i}`, WEATHER, ttlMs);
  perOp = ((performance.now() - started) * 1000) / KEYS;
  rows.push([
    `+ ${KEYS} cache keys`,
    reading(),
    `${cache.size} results kept (cap ${cacheConfig.maxEntries}), ${perOp.toFixed(2)} µs/set`,
  ]);

  // Both stores stay referenced to the end, so the last reading holds them both.
  console.log(`Node ${process.version}, ${KEYS} distinct keys per store`);
  console.log(`${'after'.padEnd(28)}  RSS MB heap used MB heap total MB  entries`);
  for (const [label, { rssMb, heapMb, heapTotalMb }, note] of rows)
    console.log(
      `${label.padEnd(28)} ${mb(rssMb)} ${mb(heapMb).padStart(12)} ${mb(heapTotalMb).padStart(13)}  ${note}`,
    );
  console.log(`kept at the end: ${counters.size} counters, ${cache.size} results`);
}

void main();
