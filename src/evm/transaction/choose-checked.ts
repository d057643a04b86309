import type { Address } from 'viem';
import type { ChainInfo } from '../chains/chains.config';
import { type CandidatePlan, type CandidateRun, toRun } from './candidates';
import type { BatchCandidate, Gathered } from './check-batch';
import type { TransactionSpec } from './transaction-builder';
import type { TransactionSimulator } from './transaction-simulator';

export interface Choice {
  run: CandidateRun;
  answer: TransactionSpec;
  state: Gathered;
}

/**
 * Gathers the plan's batch at the last head seen and lets it pick. When the node's head had moved
 * past that block (a block came since the last check of the chain), the state read is older than
 * the chain's: the batch is sent again at the new head, the one case that costs a second round
 * trip. An answer from the older block could quote what the newer state no longer pays, or ask for
 * an approval the user has just mined.
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
  if (state.head > state.block) {
    state = await simulator.gather(chain, from, candidates, reads, state.head);
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
  const runs = plan.candidates.map((spec, i) =>
    toRun(spec, simulator.assess(chain, state, i, candidates[i], spec.errors)),
  );
  const { candidate, answer } = plan.pick({ reads: state.reads, runs });
  const run = runs[candidate];
  if (!run) throw new RangeError(`pick chose candidate ${candidate} of ${runs.length}`);
  return { run, answer: answer ?? run.spec, state };
}
