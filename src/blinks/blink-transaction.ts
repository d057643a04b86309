import { type Address, getAddress, type Hex } from 'viem';
import { parseSerialized, toWagmiJson } from '../evm/transaction/tx-serialization';

/**
 * What an EVM blink's `transaction` holds: the request Dialect's EVM adapter hands to viem's
 * `sendTransaction` after wagmi's `deserialize` (@dialectlabs/blinks,
 * src/hooks/evm/useEvmWagmiAdapter.ts). Only what the wallet must not change: the nonce and any
 * field left out are the wallet's to fill.
 */
export interface WalletRequest {
  to: Address;
  data?: Hex;
  value: bigint;
  chainId: number;
  gas?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

/**
 * The action's one checked transaction as its blink answers it: wagmi's `serialize` of the wallet
 * request (`{"to":…,"value":{"__type":"bigint","value":"0"},"chainId":43113}`, `to` checksummed),
 * the form Dialect's adapter deserializes; the RLP the Sherry routes answer is not JSON and fails
 * there. Nothing is built again: the fields are the answer's own, calldata included byte for
 * byte. Gas and fees are kept only when the answer fixes them (TX_FILL=estimate; empty RLP fields
 * read back as absent), the fee pair together so that the wallet never pairs a fixed cap with a
 * tip of its own. The nonce is never passed: RLP cannot tell a nonce of 0 from none, and the
 * wallet knows its own pending transactions.
 */
export function walletTransaction(serialized: string): string {
  const tx = parseSerialized(serialized);
  if (tx.to === undefined || tx.chainId === undefined) {
    throw new Error('The action answered a transaction without a recipient or a chain');
  }
  const request: WalletRequest = {
    to: getAddress(tx.to),
    ...(tx.data !== undefined && tx.data !== '0x' && { data: tx.data }),
    value: tx.value ?? 0n,
    chainId: tx.chainId,
    ...(tx.gas !== undefined && { gas: tx.gas }),
    ...(tx.maxFeePerGas !== undefined && {
      maxFeePerGas: tx.maxFeePerGas,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n,
    }),
  };
  return toWagmiJson(request);
}
