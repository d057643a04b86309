import type { ThrottlerStorage } from '@nestjs/throttler';
import { ActionException } from '../../contract/action.exception';
import type { CountsTogether, LimitCount } from './store-abilities';
import { ResilientThrottlerStorage } from './resilient-throttler.storage';

const failing: ThrottlerStorage = {
  increment: () => Promise.reject(new Error('Connection is closed.')),
};
const record = { totalHits: 2, timeToExpire: 10, isBlocked: false, timeToBlockExpire: 0 };
const working: ThrottlerStorage = { increment: () => Promise.resolve(record) };

describe('ResilientThrottlerStorage', () => {
  it('passes the store answer through while it works', async () => {
    await expect(
      new ResilientThrottlerStorage(working, 'deny').increment('k', 60_000, 1, 60_000, 'ip'),
    ).resolves.toBe(record);
  });

  it('lets the request through uncounted when the store fails and the policy is allow', async () => {
    const result = await new ResilientThrottlerStorage(failing, 'allow').increment(
      'k',
      60_000,
      1,
      60_000,
      'ip',
    );
    expect(result).toEqual({
      totalHits: 0,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('refuses with 503 when the store fails and the policy is deny', async () => {
    const attempt = new ResilientThrottlerStorage(failing, 'deny').increment(
      'k',
      60_000,
      1,
      60_000,
      'ip',
    );
    await expect(attempt).rejects.toBeInstanceOf(ActionException);
    await expect(attempt).rejects.toMatchObject({ error: 'Rate limiting is unavailable' });
    await attempt.catch((error: ActionException) => expect(error.getStatus()).toBe(503));
  });
});

describe('ResilientThrottlerStorage#incrementAll', () => {
  const counts: LimitCount[] = [
    { key: 'u', ttl: 60_000, limit: 5, blockDuration: 60_000, name: 'user' },
    { key: 'i', ttl: 30_000, limit: 9, blockDuration: 30_000, name: 'ip' },
  ];
  const together = (all: CountsTogether['incrementAll']): ThrottlerStorage & CountsTogether => ({
    increment: () => Promise.reject(new Error('counted one by one')),
    incrementAll: all,
  });

  it("passes the store's records through in one call", async () => {
    const all = jest.fn(() => Promise.resolve([record, { ...record, totalHits: 7 }]));
    const records = await new ResilientThrottlerStorage(together(all), 'deny').incrementAll(counts);
    expect(records.map((r) => r.totalHits)).toEqual([2, 7]);
    expect(all).toHaveBeenCalledWith(counts);
  });

  it('counts one by one with a store that cannot count together', async () => {
    const increment = jest.fn(() => Promise.resolve(record));
    const store = new ResilientThrottlerStorage({ increment }, 'deny');
    expect(await store.incrementAll(counts)).toEqual([record, record]);
    expect(increment.mock.calls).toEqual([
      ['u', 60_000, 5, 60_000, 'user'],
      ['i', 30_000, 9, 30_000, 'ip'],
    ]);
  });

  it('lets each count through uncounted when the store fails and the policy is allow', async () => {
    const failed = together(() => Promise.reject(new Error('Connection is closed.')));
    const records = await new ResilientThrottlerStorage(failed, 'allow').incrementAll(counts);
    expect(records).toEqual([
      { totalHits: 0, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 },
      { totalHits: 0, timeToExpire: 30, isBlocked: false, timeToBlockExpire: 0 },
    ]);
  });

  it('refuses with 503 when the store fails and the policy is deny', async () => {
    const failed = together(() => Promise.reject(new Error('Connection is closed.')));
    const attempt = new ResilientThrottlerStorage(failed, 'deny').incrementAll(counts);
    await expect(attempt).rejects.toBeInstanceOf(ActionException);
    await attempt.catch((error: ActionException) => expect(error.getStatus()).toBe(503));
  });
});
