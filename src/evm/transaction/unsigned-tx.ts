import { encodeFunctionData, type Hex } from 'viem';
import { withTag } from './answer-tag';
import { builderMisuse, callFunction } from './builder-misuse';
import type { ContractCall, TransactionSpec } from './transaction-spec';
import type { UnsignedTransaction } from './tx-serialization';

/**
 * The transaction a spec describes, before any filling; its calldata carries the answer's tag
 * (answer-tag.ts) when there is one.
 */
export function unsigned(spec: TransactionSpec, tag?: string): UnsignedTransaction {
  const { call } = spec;
  return {
    chainId: spec.chainId,
    to: spec.to,
    data: withTag(call ? encodeCall(call) : spec.data, tag),
    value: spec.value,
    nonce: spec.nonce,
    gas: spec.gas,
    maxFeePerGas: spec.maxFeePerGas,
    maxPriorityFeePerGas: spec.maxPriorityFeePerGas,
  };
}

function encodeCall(call: ContractCall): Hex {
  const fn = callFunction(call);
  try {
    return encodeFunctionData({ abi: [fn], functionName: fn.name, args: call.args });
  } catch (error) {
    const text = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message;
    throw builderMisuse(`the call to ${fn.name} does not encode: ${text}`);
  }
}
