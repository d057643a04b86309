import { Logger } from '@nestjs/common';
import { ActionMetrics } from '../../telemetry/metrics/action-metrics';
import { MemoryCacheStore } from './cache.store';
import { ResultCache } from './result-cache';

/** A memory store whose reads can be made to fail. */
class FlakyStore extends MemoryCacheStore {
  failReads = false;

  override get(key: string): Promise<string | undefined> {
    return this.failReads ? Promise.reject(new Error('store down')) : super.get(key);
  }
}

async function lookups(metrics: ActionMetrics): Promise<Record<string, number>> {
  const counter = metrics.registry.getSingleMetric('dynamic_action_cache_lookups_total');
  const { values } = await counter!.get();
  return Object.fromEntries(values.map(({ labels, value }) => [String(labels.result), value]));
}

describe('ResultCache lookups in dynamic_action_cache_lookups_total', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('counts one result per lookup: miss, coalesced, hit, error', async () => {
    const metrics = new ActionMetrics();
    const store = new FlakyStore();
    const cache = new ResultCache(store, { ttlSeconds: 60, prefix: 't:' }, metrics);
    expect(await lookups(metrics)).toEqual({ hit: 0, miss: 0, coalesced: 0, error: 0 });

    let finish!: (value: number) => void;
    const slow = new Promise<number>((resolve) => (finish = resolve));
    const first = cache.getOrCompute('k', () => slow);
    const joined = cache.getOrCompute('k', () => Promise.resolve(0));
    // Both lookups are past the store's read before the computation ends.
    await new Promise<void>((resolve) => setImmediate(resolve));
    finish(7);
    expect(await Promise.all([first, joined])).toEqual([
      { value: 7, cached: false },
      { value: 7, cached: true },
    ]);
    expect(await cache.getOrCompute('k', () => Promise.resolve(0))).toEqual({
      value: 7,
      cached: true,
    });
    store.failReads = true;
    expect(await cache.getOrCompute('k', () => Promise.resolve(8))).toEqual({
      value: 8,
      cached: false,
    });
    expect(await lookups(metrics)).toEqual({ hit: 1, miss: 1, coalesced: 1, error: 1 });
  });
});
