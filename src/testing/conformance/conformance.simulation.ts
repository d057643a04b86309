import { type Address, createPublicClient, http } from 'viem';
import { ChainRegistry } from '../../evm/chains/chain-registry';
import { rpcFailureKind } from '../../evm/chains/chain-rpc';
import { explainRevert, revertDataOf } from '../../evm/transaction/revert-reason';
import type { UnsignedTransaction } from '../../evm/transaction/tx-serialization';
import { findings } from './conformance.http-rules';
import { CONFORMANCE_USER, sampleCall, send } from './conformance.request';
import { readSerialized } from './conformance.shapes';
import type { ConformanceCheck } from './conformance.types';
import { validFiles } from './conformance.values';

/** The transaction an answer carries, when it reads back (the valid-samples rule says when not). */
function answered(body: unknown): Partial<UnsignedTransaction> | undefined {
  const serialized = (body as { serializedTransaction?: unknown }).serializedTransaction;
  if (typeof serialized !== 'string') return undefined;
  try {
    return readSerialized(serialized);
  } catch {
    return undefined;
  }
}

/**
 * Each sample's answered transaction, run with `eth_call` as its sample user on the chain's own
 * node, as the wallet will send it: an answer that would revert is a finding, with the reason.
 * Answers that fail otherwise are the valid-samples rule's to report.
 */
export const checkSampleSimulation: ConformanceCheck = async (target) => {
  if (target.dataMode) return [];
  const chains = target.app.get(ChainRegistry, { strict: false });
  const problems: string[] = [];
  for (const [index, sample] of target.samples.entries()) {
    const what = `sample ${index + 1} ${JSON.stringify(sample.params)}`;
    const call = sampleCall(sample, validFiles(target.params));
    const answer = await send(target.app, 'POST', target.path, call);
    const tx = answer.status === 200 ? answered(answer.body) : undefined;
    const chain = tx?.chainId !== undefined ? chains.get(tx.chainId) : undefined;
    if (!tx || !chain) continue;
    const from = sample.userAddress ?? CONFORMANCE_USER;
    const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
    try {
      const balance = await client.getBalance({ address: from as Address });
      if ((tx.value ?? 0n) > balance) {
        problems.push(`${what}: sends ${tx.value} wei; the sample user ${from} holds ${balance}`);
        continue;
      }
      await client.call({ account: from as Address, to: tx.to, data: tx.data, value: tx.value });
    } catch (error) {
      const why =
        rpcFailureKind(error) === 'reverted'
          ? explainRevert(revertDataOf(error)).reason
          : `the node of chain ${chain.chainId} could not run it (${rpcFailureKind(error)})`;
      problems.push(`${what}: does not simulate cleanly as ${from}: ${why}`);
    }
  }
  return findings('sample-simulation', problems);
};
