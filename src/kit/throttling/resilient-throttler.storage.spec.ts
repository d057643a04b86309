import type { ThrottlerStorage } from '@nestjs/throttler';
import { ActionException } from '../../contract/action.exception';
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
