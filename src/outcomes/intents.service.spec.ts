import type { Hash, Transaction } from 'viem';
import { ActionException } from '../contract/action.exception';
import { storedIntent } from '../testing/intent-store.contract';
import type { HashLookup, Lookup } from './hash-lookup';
import { IntentReports } from './intent-reports';
import { IntentsService } from './intents.service';
import { OutboxRelay } from './outbox-relay';
import { MemoryIntentStore } from './memory-intent.store';
import type { OutcomeHooks } from './outcome-hooks';
import type { OutcomeMetrics } from './outcome-metrics';
import type { TransactionOutcome } from './outcome.types';
import type { OutcomesConfig } from './outcomes.config';

const HASH: Hash = `0x${'aa'.repeat(32)}`;
const ID = 'i'.repeat(32);
const TTL = 60_000;

function setup(looks: Lookup[], config: Partial<OutcomesConfig> = {}) {
  const store = new MemoryIntentStore(100, TTL * 2);
  const full = { ttlMs: TTL, maxOpenPerUser: 50, maxOpen: 1_000, ...config } as OutcomesConfig;
  const lookup = jest.fn(() => Promise.resolve(looks.shift() ?? { kind: 'unknown' }));
  const dispatched: TransactionOutcome[] = [];
  const hooks = {
    dispatch: (o: TransactionOutcome) => Promise.resolve(void dispatched.push(o)),
  } as unknown as OutcomeHooks;
  const relay = new OutboxRelay(store, full, hooks);
  const metrics = { entered: jest.fn() } as unknown as OutcomeMetrics;
  const intents = new IntentsService(store, full, relay, metrics);
  const reports = new IntentReports(intents, { lookup } as unknown as HashLookup);
  // The service's life and the reports of hashes, as the routes use them.
  const service = {
    record: intents.record.bind(intents),
    read: intents.read.bind(intents),
    expireIfDue: intents.expireIfDue.bind(intents),
    move: intents.move.bind(intents),
    report: reports.report.bind(reports),
  };
  return { service, store, lookup, dispatched };
}

const seen = (blockNumber: bigint | null): Lookup => ({
  kind: 'seen',
  seen: { sighting: 'call' },
  tx: { blockNumber, blockHash: blockNumber === null ? null : HASH } as Transaction,
});

const statusOf = (error: unknown): number | undefined =>
  error instanceof ActionException ? error.getStatus() : undefined;

describe('IntentsService', () => {
  it('a report is a hint: the intent turns submitted, never settled, and no hook runs', async () => {
    const { service, dispatched } = setup([seen(7n)]);
    await service.record(storedIntent(ID, { createdAt: Date.now() }));
    const { intent, known } = await service.report(ID, HASH);
    expect(known).toBe(true);
    expect(intent).toMatchObject({ status: 'submitted', hash: HASH, blockNumber: '7' });
    expect(dispatched).toEqual([]);
  });

  it('a foreign hash is a 422 HASH_MISMATCH and leaves the intent as it was', async () => {
    const { service } = setup([{ kind: 'foreign' }]);
    await service.record(storedIntent(ID, { createdAt: Date.now() }));
    expect(statusOf(await service.report(ID, HASH).catch((e: unknown) => e))).toBe(422);
    expect((await service.read(ID)).status).toBe('answered');
  });

  it('a hash the node does not know changes nothing, and says so', async () => {
    const { service } = setup([{ kind: 'unknown' }]);
    await service.record(storedIntent(ID, { createdAt: Date.now() }));
    expect(await service.report(ID, HASH)).toMatchObject({
      known: false,
      intent: { status: 'answered' },
    });
  });

  it('the same hash again (in capitals too) costs no look at the chain', async () => {
    const { service, lookup } = setup([seen(null)]);
    await service.record(storedIntent(ID, { createdAt: Date.now() }));
    await service.report(ID, HASH);
    await service.report(ID, HASH.toUpperCase().replace('0X', '0x') as Hash);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('another hash after it settled is a 409', async () => {
    const { service, store } = setup([]);
    await service.record(storedIntent(ID, { createdAt: Date.now() }));
    await service.move((await store.get(ID))!, { status: 'confirmed', hash: HASH });
    const other: Hash = `0x${'bb'.repeat(32)}`;
    expect(statusOf(await service.report(ID, other).catch((e: unknown) => e))).toBe(409);
  });

  it('expires an intent nothing was seen for at its deadline, once, with its hooks', async () => {
    const { service, dispatched } = setup([]);
    await service.record(storedIntent(ID, { createdAt: Date.now() - TTL - 1 }));
    await service.expireIfDue(ID);
    await service.expireIfDue(ID);
    expect(dispatched.map((o) => o.status)).toEqual(['expired']);
  });

  it('past its deadline, an intent answered before blocks the follower skipped ends unchecked, not expired', async () => {
    const { service, store, dispatched } = setup([]);
    const late = Date.now() - TTL - 1;
    await service.record(storedIntent(ID, { createdAt: late, answeredBlock: '10' }));
    await service.record(storedIntent('o'.repeat(32), { createdAt: late, answeredBlock: '30' }));
    await store.noteSkipped(43113, 12n, 20n);
    await service.expireIfDue(ID);
    await service.expireIfDue('o'.repeat(32));
    expect(dispatched.map((o) => [o.intent.id, o.status])).toEqual([
      [ID, 'unchecked'],
      ['o'.repeat(32), 'expired'],
    ]);
  });

  it('does not expire a mined intent waiting for its confirmations', async () => {
    const { service, store, dispatched } = setup([]);
    await service.record(storedIntent(ID, { createdAt: Date.now() - TTL - 1 }));
    await service.move((await store.get(ID))!, { status: 'submitted', blockNumber: '3' });
    await service.expireIfDue(ID);
    expect((await service.read(ID)).status).toBe('submitted');
    expect(dispatched).toEqual([]);
  });

  it('past INTENT_MAX_OPEN_PER_USER the user’s oldest open intent expires', async () => {
    const { service, dispatched } = setup([], { maxOpenPerUser: 2 });
    const now = Date.now();
    for (const [i, id] of ['a', 'b', 'c'].entries()) {
      await service.record(storedIntent(id.repeat(32), { createdAt: now + i }));
    }
    expect(dispatched.map((o) => [o.intent.id[0], o.status])).toEqual([['a', 'expired']]);
    expect((await service.read('c'.repeat(32))).status).toBe('answered');
  });

  it('answers recorded in one turn past the limit read and expire each oldest intent once', async () => {
    const { service, store, dispatched } = setup([], { maxOpenPerUser: 2 });
    const now = Date.now();
    for (const [i, id] of ['a', 'b'].entries()) {
      await service.record(storedIntent(id.repeat(32), { createdAt: now + i }));
    }
    const read = jest.spyOn(store, 'get');
    // Each create runs before any expiry has moved: the k-th lists the k oldest.
    const ids = ['c', 'd', 'e', 'f'];
    const recorded = ids.map((id, i) =>
      service.record(storedIntent(id.repeat(32), { createdAt: now + 2 + i })),
    );
    expect(await Promise.all(recorded)).toEqual([true, true, true, true]);
    expect(read.mock.calls.map(([id]) => id[0]).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(dispatched.map((o) => [o.intent.id[0], o.status]).sort()).toEqual([
      ['a', 'expired'],
      ['b', 'expired'],
      ['c', 'expired'],
      ['d', 'expired'],
    ]);
    for (const id of ['e', 'f']) {
      expect((await service.read(id.repeat(32))).status).toBe('answered');
    }
  });

  it('records nothing at INTENT_MAX_OPEN', async () => {
    const { service } = setup([], { maxOpen: 1 });
    expect(await service.record(storedIntent('a'.repeat(32), { createdAt: Date.now() }))).toBe(
      true,
    );
    expect(await service.record(storedIntent('b'.repeat(32), { createdAt: Date.now() }))).toBe(
      false,
    );
  });

  it('an unknown intent is a 404', async () => {
    const { service } = setup([]);
    expect(statusOf(await service.read('x'.repeat(32)).catch((e: unknown) => e))).toBe(404);
  });
});
