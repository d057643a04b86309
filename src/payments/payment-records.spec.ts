import { ActionException } from '../contract/action.exception';
import { MemoryPaymentRecords } from './payment-records';

describe('MemoryPaymentRecords', () => {
  it('claims a key once, until it is released', async () => {
    const records = new MemoryPaymentRecords(100);
    expect(await records.claim('nonce:a', 'pending', 60_000)).toBe(true);
    expect(await records.claim('nonce:a', 'pending', 60_000)).toBe(false);
    expect(await records.get('nonce:a')).toBe('pending');
    await records.put('nonce:a', 'settled:0x1', 60_000);
    expect(await records.get('nonce:a')).toBe('settled:0x1');
    await records.release('nonce:a');
    expect(await records.claim('nonce:a', 'pending', 60_000)).toBe(true);
  });

  it('forgets a record once its time is out', async () => {
    const records = new MemoryPaymentRecords(100);
    await records.claim('nonce:b', 'pending', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await records.get('nonce:b')).toBeUndefined();
    expect(await records.claim('nonce:b', 'pending', 60_000)).toBe(true);
  });

  it('refuses a new record with 503 when full of live ones, dropping none early', async () => {
    const records = new MemoryPaymentRecords(100);
    for (let i = 0; i < 100; i += 1) await records.claim(`nonce:${i}`, 'pending', 60_000);
    await expect(records.claim('nonce:new', 'pending', 60_000)).rejects.toBeInstanceOf(
      ActionException,
    );
    await expect(records.put('id:new', '{}', 60_000)).rejects.toMatchObject({ status: 503 });
    expect(await records.get('nonce:0')).toBe('pending');
    // A live record may still be overwritten (a claim becoming settled).
    await records.put('nonce:0', 'settled:0x2', 60_000);
    expect(await records.get('nonce:0')).toBe('settled:0x2');
  });
});
