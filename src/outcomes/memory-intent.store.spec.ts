import { describeIntentStore, storedIntent } from '../testing/intent-store.contract';
import { MemoryIntentStore } from './memory-intent.store';

describeIntentStore('MemoryIntentStore', () =>
  Promise.resolve(new MemoryIntentStore(1_000, 60_000)),
);

describe('MemoryIntentStore', () => {
  it('keeps at most its maximum, dropping the evicted intents from every index', async () => {
    const store = new MemoryIntentStore(2, 60_000);
    const limits = { perUser: 50, total: 100 };
    for (const id of ['a', 'b', 'c']) await store.create(storedIntent(id), 100, limits);
    expect(await store.get('a')).toBeUndefined();
    expect((await store.claimDue(200, 300, 10)).map((d) => d.id)).toEqual(['b', 'c']);
    const open = await store.openOf(43113, ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266']);
    expect(open.map((s) => s.intent.id)).toEqual(['b', 'c']);
    const recent = await store.recentOf('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 10);
    expect(recent.map((s) => s.intent.id)).toEqual(['c', 'b']);
  });
});
