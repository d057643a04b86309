import { MemoryIntentStore } from './memory-intent.store';
import type { TransactionIntent } from './outcome.types';

const intent = (
  id: string,
  status: TransactionIntent['status'] = 'answered',
): TransactionIntent => ({
  id,
  action: '/api/send-token',
  chainId: 43113,
  user: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  data: '0x',
  value: '1',
  status,
  createdAt: 1,
  updatedAt: 1,
});

describe('MemoryIntentStore', () => {
  it('replaces an intent only from the version it was read at', async () => {
    const store = new MemoryIntentStore(10, 60_000);
    await store.create(intent('a'), 100);
    const read = (await store.get('a'))!;
    expect(await store.replace(read, intent('a', 'submitted'), 5)).toBe(true);
    // A second writer holding the same old version loses.
    expect(await store.replace(read, intent('a', 'expired'), null)).toBe(false);
    expect((await store.get('a'))!.intent.status).toBe('submitted');
  });

  it('hands each due intent to one claim until its lease ends', async () => {
    const store = new MemoryIntentStore(10, 60_000);
    await store.create(intent('a'), 100);
    await store.create(intent('b'), 300);
    expect(await store.claimDue(200, 1_000, 10)).toEqual([{ id: 'a', dueAt: 100 }]);
    expect(await store.claimDue(200, 1_000, 10)).toEqual([]);
    expect((await store.claimDue(1_000, 2_000, 10)).map((d) => d.id).sort()).toEqual(['a', 'b']);
  });

  it('forgets the schedule of a settled intent', async () => {
    const store = new MemoryIntentStore(10, 60_000);
    await store.create(intent('a'), 100);
    await store.replace((await store.get('a'))!, intent('a', 'confirmed'), null);
    expect(await store.claimDue(10_000, 20_000, 10)).toEqual([]);
  });

  it('keeps at most its maximum, dropping the evicted intents from the schedule too', async () => {
    const store = new MemoryIntentStore(2, 60_000);
    for (const id of ['a', 'b', 'c']) await store.create(intent(id), 100);
    expect(await store.get('a')).toBeUndefined();
    expect((await store.claimDue(200, 300, 10)).map((d) => d.id)).toEqual(['b', 'c']);
  });

  it('claims a mark once', async () => {
    const store = new MemoryIntentStore(10, 60_000);
    expect(await store.claimOnce('a:confirmed')).toBe(true);
    expect(await store.claimOnce('a:confirmed')).toBe(false);
    expect(await store.claimOnce('a:expired')).toBe(true);
  });
});
