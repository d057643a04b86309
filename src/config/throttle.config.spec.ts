import { loadThrottleConfig } from './throttle.config';

describe('loadThrottleConfig', () => {
  it('keeps at most 100 000 counters in memory by default', () => {
    expect(loadThrottleConfig({}).maxKeys).toBe(100_000);
  });

  it('reads RATE_LIMIT_MAX_KEYS', () => {
    expect(loadThrottleConfig({ RATE_LIMIT_MAX_KEYS: '5000' }).maxKeys).toBe(5000);
  });

  it.each([['0'], ['-1'], ['1.5'], ['many'], ['10000001']])(
    'refuses RATE_LIMIT_MAX_KEYS=%s naming it',
    (value) => {
      expect(() => loadThrottleConfig({ RATE_LIMIT_MAX_KEYS: value })).toThrow(
        /RATE_LIMIT_MAX_KEYS/,
      );
    },
  );
});
