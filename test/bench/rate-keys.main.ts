/**
 * The production server whose in-memory rate-limit store already holds RATE_KEYS (default
 * 1,000,000) distinct counters when it starts listening: half per-IP counters of distinct
 * clients, half per-user counters of distinct addresses, on the calculator's scope, each in a
 * one-hour window so all of them stay live through the measurement. They go through the app's
 * own THROTTLER_STORE, as requests would put them there. run-bench.ts sets
 * RATE_LIMIT_MAX_KEYS to the count, so the store runs at its cap. Run from dist/bench/.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the compiled modules, not the sources */
import type * as StoreFactoryTs from '../../src/kit/throttling/throttler-storage.factory';
import type { MemoryThrottlerStorage } from '../../src/kit/throttling/memory-throttler.storage';
import { runBenchApp } from './bench-app';

const { THROTTLER_STORE } =
  require('../../dist/kit/throttling/throttler-storage.factory') as typeof StoreFactoryTs;

const KEYS = Number(process.env.RATE_KEYS ?? 1_000_000);
const HOUR_MS = 3_600_000;
const SCOPE = '/api/calculator';

const ip = (i: number): string => `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;
const address = (i: number): string => `0x${i.toString(16).padStart(40, '0')}`;

runBenchApp({
  beforeListen: async (app) => {
    const store = app.get<MemoryThrottlerStorage>(THROTTLER_STORE, { strict: false });
    if (typeof store.size !== 'number') throw new Error('the rate-limit store is not in memory');
    const started = performance.now();
    for (let i = 0; i < KEYS; i++) {
      const half = i >>> 1;
      if (i % 2 === 0)
        await store.increment(`ratelimit:${SCOPE}:${ip(half)}`, HOUR_MS, 1e9, HOUR_MS, 'ip');
      else
        await store.increment(`ratelimit:${SCOPE}:${address(half)}`, HOUR_MS, 1e9, HOUR_MS, 'user');
    }
    if (store.size < KEYS) throw new Error(`the store kept ${store.size} of ${KEYS} keys`);
    console.error(
      `rate-keys: ${store.size} counters held, filled in ${Math.round(performance.now() - started)} ms`,
    );
  },
});
