import type { Hash } from 'viem';
import { ActionException } from '../contract/action.exception';
import type { ChainVerdict, IntentVerifier } from './intent-verifier';
import { IntentsService, MAX_LOOK_INTERVAL_MS } from './intents.service';
import { MemoryIntentStore } from './memory-intent.store';
import type { OutcomeHooks } from './outcome-hooks';
import type { OutcomeMetrics } from './outcome-metrics';
import type { TransactionIntent, TransactionOutcome } from './outcome.types';
import type { OutcomesConfig } from './outcomes.config';

const HASH: Hash = `0x${'aa'.repeat(32)}`;
const OTHER: Hash = `0x${'bb'.repeat(32)}`;
const TTL = 60_000;

function setup(verdicts: (ChainVerdict | Error)[], ttlMs = TTL) {
  const store = new MemoryIntentStore(100, ttlMs * 2);
  const config = { ttlMs, pollMs: 1_000 } as OutcomesConfig;
  const verify = jest.fn(() => {
    const next = verdicts.shift() ?? { status: 'submitted' };
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  });
  const dispatched: TransactionOutcome[] = [];
  const hooks = {
    dispatch: (o: TransactionOutcome) => Promise.resolve(void dispatched.push(o)),
  } as unknown as OutcomeHooks;
  const metrics = { entered: jest.fn() } as unknown as OutcomeMetrics;
  const service = new IntentsService(
    store,
    config,
    { verify } as unknown as IntentVerifier,
    hooks,
    metrics,
  );
  return { service, store, verify, dispatched };
}

const intent = (createdAt = Date.now()): TransactionIntent => ({
  id: 'i'.repeat(32),
  action: '/api/pay',
  chainId: 43113,
  user: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  data: '0x',
  value: '1',
  status: 'answered',
  createdAt,
  updatedAt: createdAt,
});

const statusOf = (error: unknown): number | undefined =>
  error instanceof ActionException ? error.getStatus() : undefined;

describe('IntentsService', () => {
  it('a mined transaction not deep enough stays submitted with its block, then confirms', async () => {
    const { service, dispatched } = setup([
      { status: 'submitted', blockNumber: 7n },
      { status: 'confirmed', blockNumber: 7n },
    ]);
    await service.record(intent());
    expect(await service.report('i'.repeat(32), HASH)).toMatchObject({
      status: 'submitted',
      blockNumber: '7',
    });
    await service.checkById('i'.repeat(32));
    expect(await service.read('i'.repeat(32))).toMatchObject({ status: 'confirmed', hash: HASH });
    expect(dispatched.map((o) => o.status)).toEqual(['confirmed']);
  });

  it('a node that fails keeps the intent submitted for the next look', async () => {
    const { service } = setup([new Error('node down')]);
    await service.record(intent());
    expect((await service.report('i'.repeat(32), HASH)).status).toBe('submitted');
  });

  it('takes a new hash while nothing settled (a sped-up transaction), refuses one after', async () => {
    const { service } = setup([{ status: 'submitted' }, { status: 'reverted', blockNumber: 9n }]);
    await service.record(intent());
    await service.report('i'.repeat(32), HASH);
    expect(await service.report('i'.repeat(32), OTHER)).toMatchObject({
      status: 'reverted',
      hash: OTHER,
    });
    const refused = await service.report('i'.repeat(32), HASH).catch((e: unknown) => e);
    expect(statusOf(refused)).toBe(409);
  });

  it('a report after the deadline, before the watcher: expired, and the report refused', async () => {
    const { service, verify, dispatched } = setup([]);
    await service.record(intent(Date.now() - TTL - 1));
    const refused = await service.report('i'.repeat(32), HASH).catch((e: unknown) => e);
    expect(statusOf(refused)).toBe(409);
    expect(verify).not.toHaveBeenCalled();
    expect(dispatched.map((o) => o.status)).toEqual(['expired']);
  });

  it('reads the hash case-insensitively: the same hash in capitals is the same report', async () => {
    const { service, verify } = setup([{ status: 'submitted' }]);
    await service.record(intent());
    await service.report('i'.repeat(32), HASH);
    await service.report('i'.repeat(32), HASH.toUpperCase().replace('0X', '0x') as Hash);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('looks at a hash nobody mines less often as it ages, at most every five minutes', async () => {
    const DAY = 86_400_000;
    const { service, store, verify } = setup([], DAY);
    const start = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
    try {
      await service.record(intent(start));
      await service.report('i'.repeat(32), HASH);
      /** Whether the watcher finds the intent due at `at` (claiming it leases it: given back). */
      const dueAt = async (at: number): Promise<boolean> => {
        const due = await store.claimDue(at, at, 1);
        return due.length === 1;
      };
      expect(await dueAt(start + 999)).toBe(false);
      expect(await dueAt(start + 1_000)).toBe(true);
      // An hour without the chain mining it: the next look is five minutes away, not one second.
      const hourLater = start + 3_600_000;
      clock.mockReturnValue(hourLater);
      await service.checkById('i'.repeat(32));
      expect(verify).toHaveBeenCalledTimes(2);
      expect(await dueAt(hourLater + MAX_LOOK_INTERVAL_MS - 1)).toBe(false);
      expect(await dueAt(hourLater + MAX_LOOK_INTERVAL_MS)).toBe(true);
      // Twenty seconds after the report: a tenth of that, two seconds.
      clock.mockReturnValue(start + 20_000);
      await service.checkById('i'.repeat(32));
      expect(await dueAt(start + 21_999)).toBe(false);
      expect(await dueAt(start + 22_000)).toBe(true);
    } finally {
      clock.mockRestore();
    }
  });

  it('an unknown intent is a 404', async () => {
    const { service } = setup([]);
    expect(statusOf(await service.read('x'.repeat(32)).catch((e: unknown) => e))).toBe(404);
  });
});
