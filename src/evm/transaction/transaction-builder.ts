import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { type Abi, type AbiFunction, type Address, encodeFunctionData, type Hex } from 'viem';
import { ChainRegistry } from '../chains/chain-registry';
import {
  type ChainInfo,
  TRANSACTION_CONFIG,
  type TransactionConfig,
} from '../chains/chains.config';
import { ActionException } from '../../contract/action.exception';
import type {
  CrossChainInfo,
  ExecutionResponse,
  RequestContext,
} from '../../contract/action.types';
import { ChainRpc } from '../chains/chain-rpc';
import { approvalStep, checkSpend } from './approval-step';
import { estimateFill } from './tx-fill';
import { TransactionSimulator } from './transaction-simulator';
import type { Erc20Spend } from './erc20-spend';
import type { CandidatePlan, ChainRead } from './candidates';
import { chooseChecked } from './choose-checked';
import { displayValue, serializeUnsigned, type UnsignedTransaction } from './tx-serialization';

/** A contract call: its ABI fragment (published as `abi`) and its arguments in order. */
export interface ContractCall {
  abi: AbiFunction;
  args: readonly unknown[];
}

/**
 * What an action asks TransactionBuilder to build: the chain, target and call, with the spend to
 * check and what to show. Left-out fields (nonce, gas, fees) are filled or not per TX_FILL.
 */
export interface TransactionSpec {
  /** The chain to build for: the one `ChainRegistry.forRequest` chose. */
  chainId: number;
  /** The called contract, or the recipient of a plain transfer. */
  to: Address;
  /** Native coin sent along, in wei. */
  value?: bigint;
  /** Raw calldata; ignored when `call` is given. */
  data?: Hex;
  /** The contract call, encoded into `data` and published as `abi` and `params`. */
  call?: ContractCall;
  /** Who signs (TX_FILL=estimate reads its nonce and estimates gas as it); the acting user by default. */
  from?: Address;
  /** Kept when set; otherwise the wallet's, or the signer's pending count with TX_FILL=estimate. */
  nonce?: number;
  /** Kept when set; otherwise the wallet's, or the node's estimate plus a margin (TX_FILL=estimate). */
  gas?: bigint;
  /** EIP-1559 fee cap, kept when set; else the wallet's, or the node's with TX_FILL=estimate. */
  maxFeePerGas?: bigint;
  /** EIP-1559 tip, kept when set; otherwise the wallet's, or the node's with TX_FILL=estimate. */
  maxPriorityFeePerGas?: bigint;
  /**
   * `params` for display: the call's function name by default, extra args beside its own. An
   * extra arg may not take the name of one of the call's (viem's `erc20Abi` `transfer` has
   * `recipient` and `amount`): the answer would show it in place of what is signed, so the build
   * is refused (a 500 BUILDER_MISUSE naming both).
   */
  display?: { functionName?: string; args?: Record<string, unknown> };
  /** Details of a cross-chain transaction; the kit fills `destinationChainId` when left out. */
  crossChain?: CrossChainSpec;
  /**
   * The ERC-20 the transaction takes from its signer: the balance is checked before answering
   * and, with a `spender`, the allowance, answering the exact approval first while it is short.
   */
  spend?: Erc20Spend;
  /** The called contract's custom errors, so its reverts are explained in words. */
  errors?: Abi;
}

/** The platform's `crossChain` block as a service writes it: amounts may be bigints. */
export interface CrossChainSpec {
  destinationChainId?: number;
  /** A bigint is published as decimal text; a number as the number (the SDK accepts both). */
  destinationGasLimit?: bigint | string | number;
  destinationRecipient?: string;
  estimatedBridgeFee?: bigint | string;
  destinationOperation?: unknown;
}

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
    if (!this.config.simulate) {
      const reads = plan.reads?.length ? await this.unpinnedReads(chain, plan.reads) : [];
      const runs = plan.candidates.map((spec) => ({ spec, kind: 'unchecked' as const }));
      const { candidate, answer } = plan.pick({ reads, runs });
      return this.answer(chain, answer ?? plan.candidates[candidate], from);
    }
    if (!from) throw signerNeeded();
    const txs = plan.candidates.map(unsigned);
    const choice = await chooseChecked(this.simulator, chain, from, plan, txs);
    const { run, answer, state } = choice;
    if (run.kind === 'refused') throw run.refusal!;
    // The answer may differ from its candidate only in ways that keep the same value and gas use.
    if (choice.gasToCheck) await this.simulator.gasCheck(chain, state, from, unsigned(answer));
    if (run.kind === 'approve' && answer.spend) {
      const verdict = await this.simulator.approval(
        chain,
        state,
        from,
        answer.spend,
        answer.errors,
      );
      if (verdict.kind === 'approve') {
        return this.answer(chain, approvalStep(answer, answer.spend, verdict), from);
      }
    }
    return this.answer(chain, answer, from);
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
    built: UnsignedTransaction = unsigned(spec),
  ): Promise<ExecutionResponse> {
    const { call } = spec;
    const tx =
      this.config.fill === 'estimate'
        ? { ...built, ...(await estimateFill(this.rpc, chain, built, from ?? fillNeedsSigner())) }
        : built;
    const args = call
      ? Object.fromEntries(
          call.abi.inputs.map((input, i) => [input.name || `arg${i}`, call.args[i]]),
        )
      : {};
    const functionName = spec.display?.functionName ?? call?.abi.name;
    return {
      serializedTransaction: serializeUnsigned(tx, this.config.serialization),
      chainId: spec.chainId,
      ...(call && { abi: [call.abi] }),
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

/**
 * The action's code asked for something the builder cannot do: the team's bug, not a secret, so
 * the answer names the cause in every environment.
 */
function builderMisuse(cause: string): ActionException {
  return new ActionException(
    HttpStatus.INTERNAL_SERVER_ERROR,
    `Transaction builder misuse: ${cause}`,
    {
      code: 'BUILDER_MISUSE',
    },
  );
}

/** Display args named like the call's own would replace, in `params.args`, what is signed. */
function assertNoShadowing(call: ContractCall, display: Record<string, unknown> = {}): void {
  const inputs = call.abi.inputs.map((input, i) => input.name || `arg${i}`);
  const names = Object.keys(display).filter((name) => inputs.includes(name));
  if (names.length === 0) return;
  const quoted = names.map((name) => `"${name}"`).join(', ');
  const plural = names.length > 1 ? 's' : '';
  throw builderMisuse(
    `display.args ${quoted} would replace the argument${plural} of the same name of ` +
      `${call.abi.name}(${inputs.join(', ')}) in params.args: give the display value${plural} another name`,
  );
}

/** TX_FILL=estimate reads the signer's nonce and estimates as it: the action must name it. */
function fillNeedsSigner(): never {
  throw builderMisuse(
    'TX_FILL=estimate needs the address that will sign: declare requiresUser or set spec.from',
  );
}

/** The acting user's address is what the transaction is checked as: without it, nothing to check. */
function signerNeeded(): ActionException {
  return new ActionException(
    HttpStatus.BAD_REQUEST,
    'x-user-address header is required: the transaction is checked as its signer would send it',
    { data: { invalidParams: ['x-user-address'] }, code: 'VALIDATION_ERROR' },
  );
}

/** The transaction a spec describes, before any filling. */
function unsigned(spec: TransactionSpec): UnsignedTransaction {
  const { call } = spec;
  return {
    chainId: spec.chainId,
    to: spec.to,
    data: call ? encodeCall(call) : spec.data,
    value: spec.value,
    nonce: spec.nonce,
    gas: spec.gas,
    maxFeePerGas: spec.maxFeePerGas,
    maxPriorityFeePerGas: spec.maxPriorityFeePerGas,
  };
}

function encodeCall(call: ContractCall): Hex {
  try {
    return encodeFunctionData({ abi: [call.abi], functionName: call.abi.name, args: call.args });
  } catch (error) {
    const text = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message;
    throw builderMisuse(`the call to ${call.abi?.name ?? '(no name)'} does not encode: ${text}`);
  }
}
