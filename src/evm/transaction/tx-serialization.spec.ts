import { encodeFunctionData, parseAbiItem, parseTransaction, serializeTransaction } from 'viem';
import {
  displayValue,
  fromWagmiJson,
  serializeUnsigned,
  toWagmiJson,
  type UnsignedTransaction,
} from './tx-serialization';

/** wagmi's `deserialize`, written out as wagmi ships it, independent of the code under test. */
function wagmiDeserialize<T>(text: string): T {
  return JSON.parse(text, (_key, value: { __type?: string; value?: string } | null) =>
    value?.__type === 'bigint' ? BigInt(value.value as string) : value,
  ) as T;
}

const TRANSFER = parseAbiItem('function transfer(address to, uint256 value) returns (bool)');
const TO = '0x52908400098527886E0F7030069857D2E4169EE7';

const erc20Transfer: UnsignedTransaction = {
  chainId: 43113,
  to: TO,
  data: encodeFunctionData({ abi: [TRANSFER], args: [TO, 2n ** 70n + 1n] }),
  value: 0n,
};
const filled: UnsignedTransaction = {
  chainId: 31337,
  to: TO,
  value: 123_456_789_123_456_789_123n,
  nonce: 42,
  gas: 21_000n,
  maxFeePerGas: 30_000_000_000n,
  maxPriorityFeePerGas: 1_500_000_000n,
};

describe('serializeUnsigned (rlp)', () => {
  it.each([
    ['an ERC-20 transfer', erc20Transfer],
    ['a filled value transfer', filled],
  ])('round-trips %s through viem parseTransaction', (_name, tx) => {
    const hex = serializeUnsigned(tx, 'rlp') as `0x${string}`;
    expect(hex).toMatch(/^0x02[0-9a-f]+$/);
    const parsed = parseTransaction(hex);
    expect(parsed.type).toBe('eip1559');
    expect(parsed.chainId).toBe(tx.chainId);
    expect(parsed.to?.toLowerCase()).toBe(tx.to.toLowerCase());
    expect(parsed.data ?? '0x').toBe(tx.data ?? '0x');
    expect(parsed.value ?? 0n).toBe(tx.value ?? 0n);
    expect(parsed.nonce).toBe(tx.nonce ?? 0);
    expect(parsed.gas).toBe(tx.gas);
    expect(parsed.maxFeePerGas).toBe(tx.maxFeePerGas);
    expect(parsed.maxPriorityFeePerGas).toBe(tx.maxPriorityFeePerGas);
    expect('signature' in parsed || 'r' in parsed).toBe(false);
  });

  it('leaves gas and fees empty for the wallet to fill', () => {
    const parsed = parseTransaction(serializeUnsigned(erc20Transfer, 'rlp') as `0x${string}`);
    expect(parsed).not.toHaveProperty('gas');
    expect(parsed).not.toHaveProperty('maxFeePerGas');
    expect(parsed).not.toHaveProperty('maxPriorityFeePerGas');
  });
});

describe('serializeUnsigned (json)', () => {
  it('writes bigints the way wagmi serialize does', () => {
    const json = serializeUnsigned(filled, 'json');
    expect(JSON.parse(json)).toEqual({
      type: 'eip1559',
      chainId: 31337,
      to: TO,
      value: { __type: 'bigint', value: '123456789123456789123' },
      nonce: 42,
      gas: { __type: 'bigint', value: '21000' },
      maxFeePerGas: { __type: 'bigint', value: '30000000000' },
      maxPriorityFeePerGas: { __type: 'bigint', value: '1500000000' },
    });
  });

  it.each([
    ['an ERC-20 transfer', erc20Transfer],
    ['a filled value transfer', filled],
  ])('round-trips %s through wagmi-style deserialize and viem', (_name, tx) => {
    const json = serializeUnsigned(tx, 'json');
    const request = wagmiDeserialize<UnsignedTransaction & { type: 'eip1559' }>(json);
    expect(request).toEqual({ type: 'eip1559', ...tx });
    expect(fromWagmiJson(json)).toEqual(request);
    // The same transaction either way: a wallet may take either form.
    expect(serializeTransaction(request)).toBe(serializeUnsigned(tx, 'rlp'));
  });

  it('omits the fields it leaves to the wallet', () => {
    const request = fromWagmiJson<Record<string, unknown>>(
      serializeUnsigned(erc20Transfer, 'json'),
    );
    expect(Object.keys(request).sort()).toEqual(['chainId', 'data', 'to', 'type', 'value']);
  });
});

describe('toWagmiJson / fromWagmiJson', () => {
  it('round-trips nested bigints, leaving look-alikes that are not bigints alone', () => {
    const value = {
      a: [1n, { b: -5n }],
      c: 'text',
      d: { __type: 'other', value: '1' },
      e: { __type: 'bigint', value: 2 },
    };
    expect(fromWagmiJson(toWagmiJson(value))).toEqual(value);
  });
});

describe('displayValue', () => {
  it('turns bigints into decimal strings at any depth', () => {
    expect(
      displayValue({ amount: 10n ** 30n, path: [1n, 'x'], nested: { n: 0n, ok: true } }),
    ).toEqual({
      amount: '1000000000000000000000000000000',
      path: ['1', 'x'],
      nested: { n: '0', ok: true },
    });
  });
});
