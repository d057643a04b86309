import type { Address } from 'viem';
import type { ChainInfo } from '../chains/chains.config';
import { type CandidatePlan, type CandidateRun, toRun } from './candidates';
import type { BatchCandidate, Gathered } from './check-batch';
import type { TransactionSpec } from './transaction-builder';
import type { Assessment, TransactionSimulator } from './transaction-simulator';

export interface Choice {
  run: CandidateRun;
  answer: TransactionSpec;
  state: Gathered;
  /** The chosen candidate sends the coin and its gas is still to check (`gasCheck`). */
  gasToCheck: boolean;
}

/**
 * Gathers the plan's batch at the node's head and lets it pick: one round trip. Only when a block
 * was mined while the node answered (the batch's two heads differ: check-batch.ts) is the batch
 * sent again, pinned to the later head, so that the pick never sees two states at once.
 */
export async function chooseChecked(
  simulator: TransactionSimulator,
  chain: ChainInfo,
  from: Address,
  plan: CandidatePlan,
  txs: readonly BatchCandidate['tx'][],
): Promise<Choice> {
  const candidates = plan.candidates.map((spec, i) => ({ tx: txs[i], spend: spec.spend }));
  const reads = plan.reads ?? [];
  let state = await simulator.gather(chain, from, candidates, reads);
  if (!state.consistent) {
    state = await simulator.gather(chain, from, candidates, reads, state.block);
  }
  return choose(simulator, chain, plan, candidates, state);
}

function choose(
  simulator: TransactionSimulator,
  chain: ChainInfo,
  plan: CandidatePlan,
  candidates: readonly BatchCandidate[],
  state: Gathered,
): Choice {
  const assessed: Assessment[] = plan.candidates.map((spec, i) =>
    simulator.assess(chain, state, i, candidates[i], spec.errors),
  );
  const runs = plan.candidates.map((spec, i) => toRun(spec, assessed[i]));
  const { candidate, answer } = plan.pick({ reads: state.reads, runs });
  const run = runs[candidate];
  if (!run) throw new RangeError(`pick chose candidate ${candidate} of ${runs.length}`);
  const chosen = assessed[candidate];
  const gasToCheck = chosen.kind === 'lands' && chosen.gasToCheck === true;
  return { run, answer: answer ?? run.spec, state, gasToCheck };
}
