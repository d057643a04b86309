import { noteSignerNonce } from '../../telemetry/request-scope';
import { HttpStatus } from '@nestjs/common';
import type { Abi, Address, Hex } from 'viem';
import type { ChainInfo } from '../chains/chains.config';
import { ActionException } from '../../contract/action.exception';
import { ChainRpc, rpcFailureKind } from '../chains/chain-rpc';
import { formatAmount } from './amounts';
import { coin, GAS_CEILING, gasShortfall, shortfall } from './shortfall';
import {
  allowanceKey,
  approvalKey,
  type BatchCandidate,
  type ChainRead,
  gather,
  type Gathered,
  settle,
} from './check-batch';
import { approvalAmount, approveDryRun, type Erc20Spend } from './erc20-spend';
import { explainRevert, revertDataOf } from './revert-reason';

export { ERC20_ALLOWANCE_ABI, type Erc20Spend } from './erc20-spend';
export { GAS_CEILING } from './shortfall';

export type Verdict =
  | { kind: 'lands' }
  /** The allowance falls short: answer `approve(spender, amount)`, after a reset to 0 if `reset`. */
  | { kind: 'approve'; amount: bigint; reset: boolean };

/** One candidate judged on a batch's state, without asking the node again. */
export type Assessment =
  /**
   * `data`: what the dry run returned (the call's output, ABI-encoded). `gasToCheck`: it sends the
   * coin and the balance left after the value may not cover its gas: `gasCheck` before answering.
   */
  | { kind: 'lands'; data?: Hex; gasToCheck?: boolean }
  /** The spend's allowance falls short: the approval comes first (its dry run is still to do). */
  | { kind: 'approve' }
  | { kind: 'refused'; refusal: ActionException };

type Settled<T> = PromiseSettledResult<T>;

/**
 * Checks transactions as their signer would send them, in one JSON-RPC batch reading one block
 * (check-batch.ts): `eth_call` from the user, the native balance (head-probe.ts; for a value
 * transfer, the gas price too: see GAS_CEILING), and for an ERC-20 spend its balance and the spender's allowance. A
 * transaction that would fail is refused with a 400 saying why; a node that fails us is a 503,
 * never an answer left unchecked.
 */
export class TransactionSimulator {
  /** Chains whose head probe was seen to report the head (check-batch.ts, `calibrate`). */
  private readonly probeReportsHead = new Set<number>();

  constructor(private readonly rpc: ChainRpc) {}

  /** One batch for every candidate and read, at `block` (at the node's head when not given). */
  async gather(
    chain: ChainInfo,
    from: Address,
    candidates: readonly BatchCandidate[],
    reads: readonly ChainRead[],
    block?: bigint,
  ): Promise<Gathered> {
    let gathered: Awaited<ReturnType<typeof gather>>;
    try {
      const calibrate = !this.probeReportsHead.has(chain.chainId);
      gathered = await gather(this.rpc.batch(chain), from, block, candidates, reads, calibrate);
    } catch (error) {
      throw this.unavailable(chain, error);
    }
    const { nonce, probeReportsHead, ...state } = gathered;
    if (probeReportsHead) this.probeReportsHead.add(chain.chainId);
    if (nonce.status === 'fulfilled') {
      noteSignerNonce({
        chainId: chain.chainId,
        address: from,
        nonce: nonce.value,
        block: state.block,
      });
    }
    return state;
  }

  /** Candidate `i` on the gathered state: in the order a user needs to hear it. */
  assess(
    chain: ChainInfo,
    state: Gathered,
    i: number,
    { tx, spend }: BatchCandidate,
    errors?: Abi,
  ): Assessment {
    const native = this.known(chain, state.balance);
    const value = tx.value ?? 0n;
    if (value > native) {
      return refused(
        shortfall(`You have ${coin(native, chain)}; this needs ${coin(value, chain)}`),
      );
    }
    if (spend) {
      const held = this.known(chain, state.tokenBalances.get(spend.token.address.toLowerCase())!);
      if (held < spend.amount) {
        const { decimals, symbol } = spend.token;
        return refused(
          shortfall(
            `You have ${formatAmount(held, decimals)} ${symbol}; this needs ${formatAmount(spend.amount, decimals)} ${symbol}`,
          ),
        );
      }
    }
    // Every transaction pays gas in the coin: a key's account without any can sign nothing. A
    // smart account's gas may be a paymaster's (ERC-4337): answered, its gas unchecked (sponsored).
    if (native === 0n && !sponsored(this.known(chain, state.balance), state)) {
      return refused(shortfall(`You have no ${chain.native.symbol} to pay for gas`));
    }
    if (spend?.spender) {
      const allowance = this.known(chain, state.allowances.get(allowanceKey(spend))!);
      if (allowance < spend.amount) return { kind: 'approve' };
    }
    const call = state.calls[i];
    if (call.status === 'rejected') return refused(this.revert(chain, call.reason, spend, errors));
    if (value > 0n) {
      const price = this.known(chain, state.gasPrice);
      if (tx.gas !== undefined) {
        const refusal = gasShortfall(chain, native, value, tx.gas * price);
        if (refusal) return refused(refusal);
      } else if (native < value + GAS_CEILING * price) {
        return { kind: 'lands', data: call.value.data, gasToCheck: true };
      }
    }
    return { kind: 'lands', data: call.value.data };
  }

  /**
   * For a candidate assessed `gasToCheck`: its gas estimated at the batch's block (one more round
   * trip, only for a wallet holding little more than the value) and the refusal when the balance
   * does not cover the value plus that gas.
   */
  async gasCheck(
    chain: ChainInfo,
    state: Gathered,
    from: Address,
    tx: BatchCandidate['tx'],
  ): Promise<void> {
    const client = this.rpc.client(chain);
    const gas = await settle(
      client.estimateGas({
        account: from,
        to: tx.to,
        data: tx.data,
        value: tx.value,
        blockNumber: state.block,
      }),
    );
    const native = this.known(chain, state.balance);
    const price = this.known(chain, state.gasPrice);
    const refusal = gasShortfall(chain, native, tx.value ?? 0n, this.known(chain, gas) * price);
    if (refusal) throw refusal;
  }

  /**
   * The approval to answer for a short allowance: `approve(amount)`, dry-run in the batch itself
   * (check-batch.ts, `approvals`), so the approval answer costs one round trip like any other.
   * Only when that dry run fails on a non-zero allowance is `approve(0)` dry-run, in one more
   * round trip, for tokens like mainnet USDT that refuse to change a non-zero allowance (answered
   * as the reset, step 1 of 3).
   */
  async approval(
    chain: ChainInfo,
    state: Gathered,
    from: Address,
    spend: Erc20Spend,
    errors?: Abi,
  ): Promise<Verdict> {
    const client = this.rpc.client(chain);
    const amount = approvalAmount(spend);
    const allowance = this.known(chain, state.allowances.get(allowanceKey(spend))!);
    const run =
      state.approvals.get(approvalKey(spend)) ??
      (await settle(approveDryRun(client, from, spend, amount, state.block)));
    if (run.status === 'fulfilled') return { kind: 'approve', amount, reset: false };
    const reset =
      allowance > 0n
        ? await settle(approveDryRun(client, from, spend, 0n, state.block))
        : undefined;
    if (reset?.status === 'fulfilled') return { kind: 'approve', amount, reset: true };
    throw this.revert(chain, (reset ?? run).reason, spend, errors);
  }

  /** A read's value; a node that failed it is a 503, whatever the read. */
  private known<T>(chain: ChainInfo, result: Settled<T>): T {
    if (result.status === 'fulfilled') return result.value;
    throw this.unavailable(chain, result.reason);
  }

  /** A dry run's failure: a revert is refused with its reason, anything else is the node's fault. */
  private revert(
    chain: ChainInfo,
    reason: unknown,
    spend: Erc20Spend | undefined,
    errors: Abi | undefined,
  ): ActionException {
    if (rpcFailureKind(reason) !== 'reverted') throw this.unavailable(chain, reason);
    const why = explainRevert(revertDataOf(reason), { abi: errors, token: spend?.token });
    return new ActionException(HttpStatus.BAD_REQUEST, why.reason, {
      code: why.code,
      details: `eth_call reverted: ${why.raw}`,
    });
  }

  private unavailable(chain: ChainInfo, error: unknown): ActionException {
    return this.rpc.failure(chain, 'transaction simulation', error, HttpStatus.SERVICE_UNAVAILABLE);
  }
}

const refused = (refusal: ActionException): Assessment => ({ kind: 'refused', refusal });

/**
 * Whether the user is a smart account holding no coin: a contract or an EIP-7702-delegated key,
 * whose gas a paymaster may pay. Its answer says its gas was not checked.
 */
export function sponsored(native: bigint, state: Gathered): boolean {
  return native === 0n && state.codeSize.status === 'fulfilled' && state.codeSize.value > 0n;
}
