import { noteSignerNonce } from '../../telemetry/request-scope';
import { HttpStatus } from '@nestjs/common';
import { type Abi, type Address, encodeFunctionData, parseAbi, type PublicClient } from 'viem';
import type { ChainInfo } from '../chains/chains.config';
import { ActionException } from '../../contract/action.exception';
import { ChainRpc, rpcFailureKind } from '../chains/chain-rpc';
import { formatAmount } from './amounts';
import { explainRevert, revertDataOf, type SpentToken } from './revert-reason';
import type { UnsignedTransaction } from './tx-serialization';

export const ERC20_ALLOWANCE_ABI = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
]);

/** An ERC-20 amount a transaction takes from its signer. */
export interface Erc20Spend {
  token: SpentToken & { address: Address };
  amount: bigint;
  /**
   * The contract that takes the tokens with `transferFrom` (a router): its allowance is read, and
   * while it falls short the answer is the approval (step 1 of 2) instead of the transaction.
   */
  spender?: Address;
  /**
   * What the approval grants: `amount` by default, never unlimited, at most
   * MAX_APPROVAL_MULTIPLE × `amount` (a bounded head start for repeat use).
   */
  approve?: bigint;
}

/** A bound on what an action may ask the user to approve, relative to what it spends now. */
export const MAX_APPROVAL_MULTIPLE = 100n;

export type Verdict =
  | { kind: 'lands' }
  /** The allowance falls short: answer `approve(spender, amount)`, after a reset to 0 if `reset`. */
  | { kind: 'approve'; amount: bigint; reset: boolean };

export interface SimulationInput {
  chain: ChainInfo;
  tx: UnsignedTransaction;
  from: Address;
  spend?: Erc20Spend;
  /** The action's own custom errors, to read its contract's reverts. */
  errors?: Abi;
}

type Settled<T> = PromiseSettledResult<T>;

/**
 * Checks a transaction as its signer would send it, in one JSON-RPC batch: `eth_call` from the
 * user, the native balance and gas price (and the gas of a value transfer), and for an ERC-20
 * spend its balance, the spender's allowance and a dry run of the approval. A transaction that
 * would fail is refused with a 400 saying why; a node that fails us is a 503, never an answer
 * left unchecked.
 */
export class TransactionSimulator {
  constructor(private readonly rpc: ChainRpc) {}

  async check({ chain, tx, from, spend, errors }: SimulationInput): Promise<Verdict> {
    const client = this.rpc.client(chain);
    const request = { account: from, to: tx.to, data: tx.data, value: tx.value };
    const value = tx.value ?? 0n;
    const approval = spend?.spender ? approvalAmount(spend) : 0n;
    // Started in one tick: viem sends them as one batch.
    const [call, balance, gasPrice, gas, tokenBalance, allowance, approveRun, nonce] =
      await Promise.allSettled([
        client.call(request),
        client.getBalance({ address: from }),
        client.getGasPrice(),
        value > 0n ? client.estimateGas(request) : Promise.resolve(0n),
        spend ? readErc20(client, spend, from) : Promise.resolve(0n),
        spend?.spender ? readErc20(client, spend, from, spend.spender) : Promise.resolve(0n),
        spend?.spender ? approveCall(client, from, spend, approval) : Promise.resolve(undefined),
        // For the intent (src/outcomes): a later transaction at this nonce replaces the answer.
        client.getTransactionCount({ address: from, blockTag: 'pending' }),
      ]);
    if (nonce.status === 'fulfilled') {
      noteSignerNonce({ chainId: chain.chainId, address: from, nonce: nonce.value });
    }
    const native = this.known(chain, balance);
    const price = this.known(chain, gasPrice);
    if (value > native) {
      throw shortfall(`You have ${coin(native, chain)}; this needs ${coin(value, chain)}`);
    }
    if (spend) {
      const held = this.known(chain, tokenBalance);
      if (held < spend.amount) {
        const { decimals, symbol } = spend.token;
        throw shortfall(
          `You have ${formatAmount(held, decimals)} ${symbol}; this needs ${formatAmount(spend.amount, decimals)} ${symbol}`,
        );
      }
    }
    // Every transaction pays gas in the coin: a wallet without any can sign nothing.
    if (native === 0n) throw shortfall(`You have no ${chain.native.symbol} to pay for gas`);
    if (spend?.spender && this.known(chain, allowance) < spend.amount) {
      if (approveRun.status === 'fulfilled')
        return { kind: 'approve', amount: approval, reset: false };
      // Tokens like mainnet USDT refuse to change a non-zero allowance: set it to 0 first.
      if (this.known(chain, allowance) > 0n) {
        this.settle(chain, await settle(approveCall(client, from, spend, 0n)), spend, errors);
        return { kind: 'approve', amount: approval, reset: true };
      }
      this.settle(chain, approveRun, spend, errors);
    }
    this.settle(chain, call, spend, errors);
    const needed = value + this.known(chain, gas) * price;
    if (native < needed) {
      throw shortfall(
        `Not enough ${chain.native.symbol} for this amount plus gas: you have ${coin(native, chain)}; this needs about ${coin(needed, chain)}`,
      );
    }
    return { kind: 'lands' };
  }

  /** A read's value; a node that failed it is a 503, whatever the read. */
  private known<T>(chain: ChainInfo, result: Settled<T>): T {
    if (result.status === 'fulfilled') return result.value;
    throw this.unavailable(chain, result.reason);
  }

  /** A dry run's verdict: a revert is refused with its reason, anything else is the node's fault. */
  private settle(
    chain: ChainInfo,
    result: Settled<unknown>,
    spend: Erc20Spend | undefined,
    errors: Abi | undefined,
  ): void {
    if (result.status === 'fulfilled') return;
    if (rpcFailureKind(result.reason) !== 'reverted') throw this.unavailable(chain, result.reason);
    const why = explainRevert(revertDataOf(result.reason), { abi: errors, token: spend?.token });
    throw new ActionException(HttpStatus.BAD_REQUEST, why.reason, {
      code: why.code,
      details: `eth_call reverted: ${why.raw}`,
    });
  }

  private unavailable(chain: ChainInfo, error: unknown): ActionException {
    return this.rpc.failure(chain, 'transaction simulation', error, HttpStatus.SERVICE_UNAVAILABLE);
  }
}

const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  Promise.allSettled([promise]).then(([result]) => result);

const coin = (units: bigint, chain: ChainInfo): string =>
  `${formatAmount(units, chain.native.decimals)} ${chain.native.symbol}`;

function shortfall(reason: string): ActionException {
  return new ActionException(HttpStatus.BAD_REQUEST, reason, { code: 'INSUFFICIENT_BALANCE' });
}

/** The approval an action asked for, within its bounds (checked by the builder). */
export const approvalAmount = (spend: Erc20Spend): bigint => spend.approve ?? spend.amount;

/** The signer's balance of the spent token, or what the spender may take of it. */
function readErc20(
  client: PublicClient,
  spend: Erc20Spend,
  from: Address,
  spender?: Address,
): Promise<bigint> {
  const address = spend.token.address;
  const abi = ERC20_ALLOWANCE_ABI;
  return spender
    ? client.readContract({ address, abi, functionName: 'allowance', args: [from, spender] })
    : client.readContract({ address, abi, functionName: 'balanceOf', args: [from] });
}

function approveCall(
  client: PublicClient,
  from: Address,
  spend: Erc20Spend,
  amount: bigint,
): Promise<unknown> {
  return client.call({
    account: from,
    to: spend.token.address,
    data: encodeFunctionData({
      abi: ERC20_ALLOWANCE_ABI,
      functionName: 'approve',
      args: [spend.spender!, amount],
    }),
  });
}
