import { Logger } from '@nestjs/common';
import { LogLimiter, limitLog } from './log-limiter';

describe('LogLimiter', () => {
  let now: number;
  let logger: Logger;
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;
  let limiter: LogLimiter;

  beforeEach(() => {
    now = 1_000_000;
    logger = new Logger('Test');
    warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    limiter = new LogLimiter(logger, { intervalMs: 60_000, maxKeys: 3, now: () => now });
  });

  it('writes the first line of a key and holds back its repeats within the interval', () => {
    for (let i = 0; i < 50; i++) limiter.warn('upstream:500', 'Upstream answered HTTP 500');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('Upstream answered HTTP 500');
  });

  it('writes again once the interval has passed, counting what it held back', () => {
    for (let i = 0; i < 20; i++) limiter.warn('k', 'down');
    now += 59_999;
    limiter.warn('k', 'down');
    expect(warn).toHaveBeenCalledTimes(1);
    now += 1;
    limiter.warn('k', 'down');
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenLastCalledWith(expect.stringMatching(/^down \(20 more like this/));
    now += 60_000;
    limiter.warn('k', 'down');
    expect(warn).toHaveBeenLastCalledWith('down');
  });

  it('keeps keys apart', () => {
    limiter.warn('a', 'first');
    limiter.warn('b', 'second');
    limiter.warn('a', 'first again');
    expect(warn.mock.calls).toEqual([['first'], ['second']]);
  });

  it('passes the stack of an error line through', () => {
    limiter.error('bug', 'failed', 'Error: x\n    at f (a.ts:1:1)');
    limiter.error('bug', 'failed', 'Error: x\n    at f (a.ts:1:1)');
    expect(error.mock.calls).toEqual([['failed', 'Error: x\n    at f (a.ts:1:1)']]);
  });

  it('remembers a bounded number of keys, forgetting the least recently seen', () => {
    for (const key of ['a', 'b', 'c', 'd']) limiter.warn(key, key);
    limiter.warn('a', 'a');
    limiter.warn('d', 'd');
    expect(warn.mock.calls.map((call: unknown[]) => call[0])).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('gives each Logger instance one limiter of its own', () => {
    const other = new Logger('Other');
    expect(limitLog(logger)).toBe(limitLog(logger));
    expect(limitLog(other)).not.toBe(limitLog(logger));
    limitLog(logger).warn('k', 'once');
    limitLog(logger).warn('k', 'once');
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
