import type { Address } from 'viem';
import { noteSignerNonce } from '../../telemetry/request-scope';
import { ChainRpc } from '../chains/chain-rpc';
import type { ChainInfo } from '../chains/chains.config';
import { RpcAnswerError } from '../chains/rpc-answers';
import type { UnsignedTransaction } from './tx-serialization';

/** Head-room on top of the node's gas estimate, in percent: state may move before the wallet signs. */
const GAS_MARGIN_PERCENT = 20n;

/** Fields the backend leaves to the wallet unless told otherwise; one JSON-RPC batch. */
export async function estimateFill(
  rpc: ChainRpc,
  chain: ChainInfo,
  tx: UnsignedTransaction,
  from: Address,
): Promise<Partial<UnsignedTransaction>> {
  const request = { account: from, to: tx.to, data: tx.data, value: tx.value };
  const [nonce, gas, fees] = await rpc.read(chain, 'transaction estimate', (client) =>
    Promise.all([
      tx.nonce ?? client.getTransactionCount({ address: from, blockTag: 'pending' }),
      tx.gas ?? client.estimateGas(request),
      client.estimateFeesPerGas({ chain: null, type: 'eip1559' }),
    ]),
  );
  if (!isFill(nonce, gas, fees)) {
    throw rpc.failure(chain, 'transaction estimate', new RpcAnswerError('the estimate'));
  }
  noteSignerNonce({ chainId: chain.chainId, address: from, nonce });
  return {
    nonce,
    gas: tx.gas ?? (gas * (100n + GAS_MARGIN_PERCENT)) / 100n,
    maxFeePerGas: tx.maxFeePerGas ?? fees.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? fees.maxPriorityFeePerGas,
  };
}

/**
 * What the node's estimate must look like to sign: a nonce, some gas, fees with the priority fee
 * within the cap. Anything else (a gas of 0, fees missing) would make a transaction that fails.
 */
function isFill(
  nonce: unknown,
  gas: unknown,
  fees: { maxFeePerGas?: unknown; maxPriorityFeePerGas?: unknown },
): boolean {
  const { maxFeePerGas: cap, maxPriorityFeePerGas: tip } = fees;
  return (
    Number.isSafeInteger(nonce) &&
    (nonce as number) >= 0 &&
    typeof gas === 'bigint' &&
    gas > 0n &&
    typeof cap === 'bigint' &&
    typeof tip === 'bigint' &&
    tip >= 0n &&
    cap >= tip
  );
}
