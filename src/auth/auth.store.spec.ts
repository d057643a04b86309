import { HttpStatus } from '@nestjs/common';
import { MemoryAuthStore } from './auth.store';

describe('MemoryAuthStore', () => {
  it('uses a nonce once, and not after its time', async () => {
    const store = new MemoryAuthStore(100);
    await store.issueNonce('a', 60_000);
    await store.issueNonce('b', 1);
    // Looking does not use it: only consuming does.
    expect([await store.hasNonce('a'), await store.hasNonce('a')]).toEqual([true, true]);
    expect([await store.consumeNonce('a'), await store.consumeNonce('a')]).toEqual([true, false]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([await store.hasNonce('a'), await store.hasNonce('b')]).toEqual([false, false]);
    expect(await store.consumeNonce('b')).toBe(false);
    expect(await store.consumeNonce('never given')).toBe(false);
  });

  it('keeps every revoked session until it expires: a full deny-list refuses (503), forgets none', async () => {
    const store = new MemoryAuthStore(2);
    await store.revoke('one', 60_000);
    await store.revoke('two', 60_000);
    await expect(store.revoke('three', 60_000)).rejects.toMatchObject({
      status: HttpStatus.SERVICE_UNAVAILABLE,
    });
    expect([await store.isRevoked('one'), await store.isRevoked('two')]).toEqual([true, true]);
    expect(await store.isRevoked('three')).toBe(false);
  });

  it('makes room once revocations expire', async () => {
    const store = new MemoryAuthStore(1);
    await store.revoke('old', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await store.revoke('new', 60_000);
    expect([await store.isRevoked('old'), await store.isRevoked('new')]).toEqual([false, true]);
  });
});
