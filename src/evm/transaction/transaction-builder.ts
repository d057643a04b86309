import { noteSignerNonce } from '../../telemetry/request-scope';
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
import { RpcAnswerError } from '../chains/rpc-answers';
import { approvalStep, checkSpend } from './approval-step';
import { type Erc20Spend, TransactionSimulator } from './transaction-simulator';
import { displayValue, serializeUnsigned, type UnsignedTransaction } from './tx-serialization';

/** A contract call: its ABI fragment (published as `abi`) and its arguments in order. */
export interface ContractCall {
  abi: AbiFunction;
  args: readonly unknown[];
}

export interface TransactionSpec {
  chainId: number;
  to: Address;
  value?: bigint;
  /** Raw calldata; ignored when `call` is given. */
  data?: Hex;
  call?: ContractCall;
  /** Who signs (TX_FILL=estimate reads its nonce and estimates gas as it); the acting user by default. */
  from?: Address;
  nonce?: number;
  gas?: bigint;
  maxFeePerGas?: bigint;
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

/** Head-room on top of the node's gas estimate, in percent: state may move before the wallet signs. */
const GAS_MARGIN_PERCENT = 20n;

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
  async build(spec: TransactionSpec, context: RequestContext): Promise<ExecutionResponse> {
    const chain = this.chains.get(spec.chainId);
    if (!chain) throw builderMisuse(`chain ${spec.chainId} is not configured`);
    // Before any simulation: the approval answered first would hide it until the second step.
    if (spec.call) assertNoShadowing(spec.call, spec.display?.args);
    if (spec.spend) {
      const problem = checkSpend(spec.spend);
      if (problem) throw builderMisuse(problem);
    }
    const from = spec.from ?? context.userAddress;
    const tx = unsigned(spec);
    if (this.config.simulate) {
      if (!from) throw signerNeeded();
      const { spend, errors } = spec;
      const verdict = await this.simulator.check({ chain, tx, from, spend, errors });
      if (verdict.kind === 'approve' && spend) {
        return this.answer(chain, approvalStep(spec, spend, verdict), from);
      }
    }
    return this.answer(chain, spec, from, tx);
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
        ? { ...built, ...(await this.estimate(chain, built, from)) }
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

  /** Fields the backend leaves to the wallet unless told otherwise; one JSON-RPC batch. */
  private async estimate(
    chain: ChainInfo,
    tx: UnsignedTransaction,
    from: Address | undefined,
  ): Promise<Partial<UnsignedTransaction>> {
    if (!from) {
      throw builderMisuse(
        'TX_FILL=estimate needs the address that will sign: declare requiresUser or set spec.from',
      );
    }
    const request = { account: from, to: tx.to, data: tx.data, value: tx.value };
    const [nonce, gas, fees] = await this.rpc.read(chain, 'transaction estimate', (client) =>
      Promise.all([
        tx.nonce ?? client.getTransactionCount({ address: from, blockTag: 'pending' }),
        tx.gas ?? client.estimateGas(request),
        client.estimateFeesPerGas({ chain: null, type: 'eip1559' }),
      ]),
    );
    if (!isFill(nonce, gas, fees)) {
      throw this.rpc.failure(chain, 'transaction estimate', new RpcAnswerError('the estimate'));
    }
    noteSignerNonce({ chainId: chain.chainId, address: from, nonce });
    return {
      nonce,
      gas: tx.gas ?? (gas * (100n + GAS_MARGIN_PERCENT)) / 100n,
      maxFeePerGas: tx.maxFeePerGas ?? fees.maxFeePerGas,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? fees.maxPriorityFeePerGas,
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
