import { encodeFunctionData, erc20Abi, getAddress, type Hex } from 'viem';
import { serializeUnsigned, type UnsignedTransaction } from '../evm/transaction/tx-serialization';
import { DecodeError, decodeTransaction } from './transaction-decoder';

const TOKEN = getAddress('0x5425890298aed601595a70ab815c96711a31bc65');
const RECIPIENT = getAddress('0x000000000000000000000000000000000000dead');
const AMOUNT = 2n ** 70n + 1n;
const data: Hex = encodeFunctionData({
  abi: erc20Abi,
  functionName: 'transfer',
  args: [RECIPIENT, AMOUNT],
});
const tx: UnsignedTransaction = {
  chainId: 43113,
  to: TOKEN,
  data,
  value: 5n,
  gas: 65_000n,
  maxFeePerGas: 30_000_000_000n,
};

describe('decodeTransaction', () => {
  it.each(['rlp', 'json'] as const)('reads the %s serialization and names the call', (format) => {
    const decoded = decodeTransaction(serializeUnsigned(tx, format), erc20Abi);
    expect(decoded.format).toBe(format);
    expect(decoded.fields).toMatchObject({
      chainId: 43113,
      to: TOKEN,
      value: '5',
      gas: '65000',
      maxFeePerGas: '30000000000',
    });
    expect(decoded.call).toEqual({
      functionName: 'transfer',
      abi: 'answer',
      args: [
        { name: 'recipient', type: 'address', value: RECIPIENT },
        { name: 'amount', type: 'uint256', value: AMOUNT.toString() },
      ],
    });
    expect(decoded.walletRequest).toEqual({
      to: TOKEN,
      data,
      value: '0x5',
      gas: '0xfde8',
      maxFeePerGas: '0x6fc23ac00',
    });
  });

  it('tries the standard ABIs when the answer has none, and gives the selector otherwise', () => {
    expect(decodeTransaction(serializeUnsigned(tx, 'rlp')).call?.abi).toBe('erc20');
    const unknown = decodeTransaction(serializeUnsigned({ ...tx, data: '0x12345678' }, 'rlp'));
    expect(unknown.call).toBeUndefined();
    expect(unknown.selector).toBe('0x12345678');
  });

  it.each(['hello', '0xzz', '{"type":', '0x1234'])('refuses %j with a DecodeError', (text) => {
    expect(() => decodeTransaction(text)).toThrow(DecodeError);
  });
});
