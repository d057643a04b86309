import { type Address, decodeFunctionResult } from 'viem';
import type { ActionException } from '../../contract/action.exception';
import type { ChainRead } from './check-batch';
import type { TransactionSpec } from './transaction-builder';
import type { Assessment } from './transaction-simulator';
import { callFunction } from './builder-misuse';

export type { ChainRead } from './check-batch';

/**
 * What an action that reads before it builds hands the builder (`buildBest`): the reads it needs
 * and every transaction it might answer. All are checked in ONE batch at one block, then `pick`
 * chooses; the answer costs one round trip to the node, however many candidates and reads.
 */
export interface CandidatePlan {
  chainId: number;
  /** Who signs; the acting user by default. */
  from?: Address;
  /** View calls answered at the same block as the dry runs, in this order. */
  reads?: readonly ChainRead[];
  /** The transactions that could be answered: each is dry-run as its signer would send it. */
  candidates: readonly TransactionSpec[];
  /**
   * Chooses from the reads and every candidate's dry run, once, on the state of the block the
   * answer is checked at; throws an ActionException to refuse.
   */
  pick(checked: CheckedCandidates): CandidatePick;
}

/** The reads' results (a revert is `rejected`; the action decides what it means) and the runs. */
export interface CheckedCandidates {
  reads: PromiseSettledResult<unknown>[];
  runs: CandidateRun[];
}

/**
 * One candidate's dry run at the batch's block:
 * - `lands`: it passed; `output` is its call's decoded return value;
 * - `approve`: its spend's allowance falls short, so it was not judged: the approval comes first;
 * - `refused`: it would fail; `refusal` says why in words (decoded revert, balance short…);
 * - `unchecked`: TX_SIMULATE is off, nothing was dry-run.
 */
export interface CandidateRun {
  spec: TransactionSpec;
  kind: 'lands' | 'approve' | 'refused' | 'unchecked';
  output?: unknown;
  refusal?: ActionException;
}

/**
 * The candidate to answer. `answer` replaces its spec when given, and may differ from the
 * candidate only in ways that cannot turn its passing dry run into a failure at the same state
 * (e.g. a swap's minimum raised from 0 up to, never above, the output the dry run returned).
 */
export interface CandidatePick {
  candidate: number;
  answer?: TransactionSpec;
}

/** A candidate's run, its output decoded with the call's ABI (undefined when it does not decode). */
export function toRun(spec: TransactionSpec, assessment: Assessment): CandidateRun {
  if (assessment.kind === 'refused') return { spec, kind: 'refused', refusal: assessment.refusal };
  if (assessment.kind === 'approve') return { spec, kind: 'approve' };
  return { spec, kind: 'lands', output: decodeOutput(spec, assessment.data) };
}

function decodeOutput(spec: TransactionSpec, data: `0x${string}` | undefined): unknown {
  if (!spec.call || !data) return undefined;
  try {
    const fn = callFunction(spec.call);
    return decodeFunctionResult({ abi: [fn], functionName: fn.name, data });
  } catch {
    return undefined;
  }
}
