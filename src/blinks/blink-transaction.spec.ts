import { deserialize, serialize } from '@wagmi/core';
import { type Address, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { serializeUnsigned, type UnsignedTransaction } from '../evm/transaction/tx-serialization';
import { walletTransaction } from './blink-transaction';

const USDC: Address = '0x5425890298aed601595a70AB815c96711a31Bc65';
const RECIPIENT: Address = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
// Calldata with bytes after the call (as a data suffix appends them): carried as they are.
const transfer = `${encodeFunctionData({
  abi: erc20Abi,
  functionName: 'transfer',
  args: [RECIPIENT, 2_500_000n],
})}80218021802180218021` as Hex;
const unfilled: UnsignedTransaction = { chainId: 43113, to: USDC, data: transfer };
const filled: UnsignedTransaction = {
  ...unfilled,
  value: 7n,
  nonce: 5,
  gas: 60_000n,
  maxFeePerGas: 30_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
};

describe('walletTransaction (the checked answer → the EVM adapter’s format)', () => {
  it.each(['rlp', 'json'] as const)(
    'is wagmi’s serialize of {to, data, value, chainId}, byte for byte (%s answers)',
    (format) => {
      const text = walletTransaction(serializeUnsigned(unfilled, format));
      expect(text).toBe(serialize({ to: USDC, data: transfer, value: 0n, chainId: 43113 }));
      expect(deserialize(text)).toEqual({ to: USDC, data: transfer, value: 0n, chainId: 43113 });
    },
  );

  it.each(['rlp', 'json'] as const)(
    'keeps the gas and fees the answer fixes, never its nonce (%s answers)',
    (format) => {
      const text = walletTransaction(serializeUnsigned(filled, format));
      expect(text).toBe(
        serialize({
          to: filled.to,
          data: filled.data,
          value: filled.value,
          chainId: filled.chainId,
          gas: filled.gas,
          maxFeePerGas: filled.maxFeePerGas,
          maxPriorityFeePerGas: filled.maxPriorityFeePerGas,
        }),
      );
      expect(deserialize(text)).not.toHaveProperty('nonce');
    },
  );

  it('sends no data for a plain transfer of the coin, and a fee cap with a tip', () => {
    const native = { chainId: 43113, to: RECIPIENT, value: 10n ** 18n, maxFeePerGas: 9n };
    expect(deserialize(walletTransaction(serializeUnsigned(native, 'rlp')))).toEqual({
      to: RECIPIENT,
      value: 10n ** 18n,
      chainId: 43113,
      maxFeePerGas: 9n,
      maxPriorityFeePerGas: 0n,
    });
  });

  it('refuses an answer without a recipient', () => {
    expect(() => walletTransaction('{"chainId":43113}')).toThrow(/recipient/);
  });
});
