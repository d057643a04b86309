import {
  type Address,
  type HDAccount,
  type Hex,
  parseTransaction,
  type TransactionReceipt,
  type TransactionSerializableEIP1559,
} from 'viem';
import type { LocalChain } from './chain-types';

/** wagmi's `deserialize`, as a wallet front end applies it to the JSON form. */
function wagmiDeserialize<T>(text: string): T {
  return JSON.parse(text, (_key, value: { __type?: string; value?: string } | null) =>
    value?.__type === 'bigint' ? BigInt(value.value as string) : value,
  ) as T;
}

/** The transaction an ExecutionResponse carries, in either serialization. */
export function deserializeTransaction(serialized: string): TransactionSerializableEIP1559 {
  if (serialized.startsWith('0x02')) {
    return parseTransaction(serialized as Hex) as TransactionSerializableEIP1559;
  }
  return wagmiDeserialize<TransactionSerializableEIP1559>(serialized);
}

/** What a wallet's send came to: the transaction's hash and its mined receipt (`receipt.status`). */
export interface WalletRun {
  /** What the wallet signed, after filling. */
  signed: TransactionSerializableEIP1559;
  receipt: TransactionReceipt;
}

/**
 * Acts as the user's wallet: deserializes the transaction, fills nonce, gas and fees from the
 * chain unless told to keep what the backend filled, signs with the account's key and sends it.
 */
export async function signAndSend(
  chain: LocalChain,
  account: HDAccount,
  serialized: string,
  { keepFilled = false }: { keepFilled?: boolean } = {},
): Promise<WalletRun> {
  const tx = deserializeTransaction(serialized);
  const client = chain.publicClient;
  let signed: TransactionSerializableEIP1559 = { ...tx, type: 'eip1559' };
  if (!keepFilled) {
    const request = {
      account: account.address,
      to: tx.to as Address,
      data: tx.data,
      value: tx.value,
    };
    const [nonce, gas, fees] = await Promise.all([
      client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
      client.estimateGas(request),
      client.estimateFeesPerGas(),
    ]);
    signed = { ...signed, nonce, gas, ...fees };
  }
  const raw = await account.signTransaction(signed);
  const hash = await client.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await client.waitForTransactionReceipt({ hash });
  return { signed, receipt };
}
