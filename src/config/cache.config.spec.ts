import { loadCacheConfig } from './cache.config';

describe('loadCacheConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadCacheConfig({})).toEqual({ ttlSeconds: 300, prefix: 'cache:', maxEntries: 10_000 });
  });

  it('reads CACHE_MAX_ENTRIES', () => {
    expect(loadCacheConfig({ CACHE_MAX_ENTRIES: '250' }).maxEntries).toBe(250);
  });

  it.each([['0'], ['-5'], ['2.5'], ['lots'], ['10000001']])(
    'refuses CACHE_MAX_ENTRIES=%s naming it',
    (value) => {
      expect(() => loadCacheConfig({ CACHE_MAX_ENTRIES: value })).toThrow(/CACHE_MAX_ENTRIES/);
    },
  );
});
