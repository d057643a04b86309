import { Inject, Injectable } from '@nestjs/common';
import type { Address } from 'viem';
import { ChainRegistry } from '../chains/chain-registry';
import {
  type ChainInfo,
  TRANSACTION_CONFIG,
  type TransactionConfig,
} from '../chains/chains.config';
import type {
  CrossChainInfo,
  ExecutionResponse,
  RequestContext,
} from '../../contract/action.types';
import { ChainRpc } from '../chains/chain-rpc';
import { approvalStep, checkSpend } from './approval-step';
import { estimateFill } from './tx-fill';
import { sponsored, TransactionSimulator } from './transaction-simulator';
import { gasUnchecked } from './shortfall';
import type { CandidatePlan, ChainRead } from './candidates';
import { chooseChecked } from './choose-checked';
import { displayValue, serializeUnsigned } from './tx-serialization';
import type { TransactionSpec } from './transaction-spec';
import {
  assertNoShadowing,
  builderMisuse,
  callFunction,
  fillNeedsSigner,
  signerNeeded,
} from './builder-misuse';
import { unsigned } from './unsigned-tx';
import { newAnswerTag } from './answer-tag';
import { answerTagOf } from '../../telemetry/request-scope';

export type { ContractCall, CrossChainSpec, TransactionSpec } from './transaction-spec';

/**
 * Builds every transaction-mode answer: encodes the call, checks it lands as the user would send
 * it (TransactionSimulator; the approval comes first when an allowance is short), fills nonce,
 * gas and fees when TX_FILL=estimate, and serializes as TX_SERIALIZATION says. Which chain a request runs on is
 * the ChainRegistry's answer (`forRequest`).
 */
@Injectable()
export class TransactionBuilder {
  private readonly simulator: TransactionSimulator;

  constructor(
    private readonly chains: ChainRegistry,
    @Inject(TRANSACTION_CONFIG) private readonly config: TransactionConfig,
    private readonly rpc: ChainRpc,
  ) {
    this.simulator = new TransactionSimulator(rpc);
  }

  /**
   * `context` is the request's (`@ActionContext()`): the transaction is the acting user's unless
   * `spec.from` says otherwise.
   */
  build(spec: TransactionSpec, context: RequestContext): Promise<ExecutionResponse> {
    const { chainId, from } = spec;
    return this.buildBest(
      { chainId, from, candidates: [spec], pick: () => ({ candidate: 0 }) },
      context,
    );
  }

  /**
   * Reads and candidates checked in one batch at one block, then the plan's pick answered (the
   * approval first when its allowance is short): see CandidatePlan.
   */
  async buildBest(plan: CandidatePlan, context: RequestContext): Promise<ExecutionResponse> {
    const chain = this.chains.get(plan.chainId);
    if (!chain) throw builderMisuse(`chain ${plan.chainId} is not configured`);
    for (const { call, display, spend } of plan.candidates) {
      // Before any simulation: the approval answered first would hide it until the second step.
      if (call) assertNoShadowing(call, display?.args);
      const problem = spend && checkSpend(spend);
      if (problem) throw builderMisuse(problem);
    }
    const from = plan.from ?? context.userAddress;
    // An answer to a named user is recorded as an intent under this tag (src/outcomes).
    const tag = context.userAddress ? answerTagOf(newAnswerTag) : undefined;
    if (!this.config.simulate) {
      const reads = plan.reads?.length ? await this.unpinnedReads(chain, plan.reads) : [];
      const runs = plan.candidates.map((spec) => ({ spec, kind: 'unchecked' as const }));
      const { candidate, answer } = plan.pick({ reads, runs });
      return this.answer(chain, answer ?? plan.candidates[candidate], from, tag);
    }
    if (!from) throw signerNeeded();
    const txs = plan.candidates.map((spec) => unsigned(spec, tag));
    const choice = await chooseChecked(this.simulator, chain, from, plan, txs);
    const { run, answer, state } = choice;
    if (run.kind === 'refused') throw run.refusal!;
    const unchecked = state.balance.status === 'fulfilled' && sponsored(state.balance.value, state);
    // The answer may differ from its candidate only in ways that keep the same value and gas use.
    if (choice.gasToCheck) {
      await this.simulator.gasCheck(chain, state, from, unsigned(answer, tag));
    }
    if (run.kind === 'approve' && answer.spend) {
      const verdict = await this.simulator.approval(
        chain,
        state,
        from,
        answer.spend,
        answer.errors,
      );
      if (verdict.kind === 'approve') {
        const approval = approvalStep(answer, answer.spend, verdict);
        return this.answer(chain, unchecked ? gasUnchecked(approval) : approval, from, tag);
      }
    }
    return this.answer(chain, unchecked ? gasUnchecked(answer) : answer, from, tag);
  }

  /** TX_SIMULATE=off: the reads alone, as the node answers them (one batch, nothing pinned). */
  private unpinnedReads(
    chain: ChainInfo,
    reads: readonly ChainRead[],
  ): Promise<PromiseSettledResult<unknown>[]> {
    const client = this.rpc.client(chain);
    return Promise.allSettled(reads.map((read): Promise<unknown> => client.readContract(read)));
  }

  /** Fills (TX_FILL=estimate), serializes and describes a transaction the checks let through. */
  private async answer(
    chain: ChainInfo,
    spec: TransactionSpec,
    from: Address | undefined,
    tag: string | undefined,
  ): Promise<ExecutionResponse> {
    const built = unsigned(spec, tag);
    const fn = spec.call && callFunction(spec.call);
    const callArgs = spec.call?.args ?? [];
    const tx =
      this.config.fill === 'estimate'
        ? { ...built, ...(await estimateFill(this.rpc, chain, built, from ?? fillNeedsSigner())) }
        : built;
    const args = fn
      ? Object.fromEntries(fn.inputs.map((input, i) => [input.name || `arg${i}`, callArgs[i]]))
      : {};
    const functionName = spec.display?.functionName ?? fn?.name;
    return {
      serializedTransaction: serializeUnsigned(tx, this.config.serialization),
      chainId: spec.chainId,
      ...(fn && { abi: [fn] }),
      ...(functionName !== undefined && {
        params: {
          functionName,
          args: displayValue({ ...args, ...spec.display?.args }) as Record<string, unknown>,
        },
      }),
      ...(spec.crossChain && { crossChain: displayValue(spec.crossChain) as CrossChainInfo }),
    };
  }
}
