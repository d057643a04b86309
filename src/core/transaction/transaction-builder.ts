import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { type AbiFunction, type Address, encodeFunctionData, type Hex } from 'viem';
import {
  type ChainInfo,
  CHAINS_CONFIG,
  type ChainsConfig,
  type TokenInfo,
  TRANSACTION_CONFIG,
  type TransactionConfig,
} from '../../config/chains.config';
import type { ActionDeclaration, ExecutionResponse, RequestContext } from '../action.types';
import { ActionException } from '../action.exception';
import { ChainRpc } from './chain-rpc';
import { RpcAnswerError } from './rpc-answers';
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
  /** Who signs: TX_FILL=estimate reads its nonce and estimates gas as it. */
  from?: Address;
  nonce?: number;
  gas?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  /** `params` for display: the call's function name by default, extra args beside its own. */
  display?: { functionName?: string; args?: Record<string, unknown> };
}

/** Head-room on top of the node's gas estimate, in percent: state may move before the wallet signs. */
const GAS_MARGIN_PERCENT = 20n;

/**
 * Builds every transaction-mode answer: resolves the request's chain, encodes the call, fills
 * nonce, gas and fees when TX_FILL=estimate, and serializes as TX_SERIALIZATION says.
 */
@Injectable()
export class TransactionBuilder {
  constructor(
    @Inject(CHAINS_CONFIG) private readonly chains: ChainsConfig,
    @Inject(TRANSACTION_CONFIG) private readonly config: TransactionConfig,
    private readonly rpc: ChainRpc,
  ) {}

  /** Stops the boot when an action declares a chain the configuration does not list. */
  assertConfigured(action: ActionDeclaration): void {
    const missing = declaredChains(action).filter((id) => !this.chains.chains.has(id));
    if (missing.length > 0) {
      throw new Error(
        `Action ${action.path} runs on chain ${missing.join(', ')}, which the chain configuration does not list`,
      );
    }
  }

  /** The request's source chain (else the action's `chains.source`); one the action does not declare is a 400. */
  chainFor(action: ActionDeclaration, context: RequestContext): ChainInfo {
    const declared = declaredChains(action);
    const chainId = context.sourceChain ?? action.chains.source;
    const chain = this.chains.chains.get(chainId);
    if (!declared.includes(chainId) || !chain) {
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `Chain ${chainId} is not supported by this action (sourceChain: ${declared.join(' or ')})`,
        { data: { invalidParams: ['sourceChain'] }, code: 'UNSUPPORTED_CHAIN' },
      );
    }
    return chain;
  }

  /** The chain's token with this symbol, the native coin included; another is a 400 naming it. */
  token(chain: ChainInfo, symbol: string, param: string): TokenInfo {
    const token = chain.tokens.get(symbol);
    if (!token) {
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `Unknown token ${symbol} for ${param} on ${chain.name} (chain ${chain.chainId})`,
        { data: { invalidParams: [param] }, code: 'UNKNOWN_TOKEN' },
      );
    }
    return token;
  }

  async build(spec: TransactionSpec): Promise<ExecutionResponse> {
    const chain = this.chains.chains.get(spec.chainId);
    if (!chain) throw new Error(`Chain ${spec.chainId} is not configured`);
    const { call } = spec;
    let tx: UnsignedTransaction = {
      chainId: spec.chainId,
      to: spec.to,
      data: call
        ? encodeFunctionData({ abi: [call.abi], functionName: call.abi.name, args: call.args })
        : spec.data,
      value: spec.value,
      nonce: spec.nonce,
      gas: spec.gas,
      maxFeePerGas: spec.maxFeePerGas,
      maxPriorityFeePerGas: spec.maxPriorityFeePerGas,
    };
    if (this.config.fill === 'estimate')
      tx = { ...tx, ...(await this.estimate(chain, tx, spec.from)) };
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
    };
  }

  /** Fields the backend leaves to the wallet unless told otherwise; one JSON-RPC batch. */
  private async estimate(
    chain: ChainInfo,
    tx: UnsignedTransaction,
    from: Address | undefined,
  ): Promise<Partial<UnsignedTransaction>> {
    if (!from) throw new Error('TX_FILL=estimate needs the address that will sign');
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
    return {
      nonce,
      gas: tx.gas ?? (gas * (100n + GAS_MARGIN_PERCENT)) / 100n,
      maxFeePerGas: tx.maxFeePerGas ?? fees.maxFeePerGas,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? fees.maxPriorityFeePerGas,
    };
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

function declaredChains(action: ActionDeclaration): number[] {
  const { source, destination } = action.chains;
  return destination === undefined ? [source] : [source, destination];
}
