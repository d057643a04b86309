import { type Address, encodeFunctionData, type Hex, parseAbi, type PublicClient } from 'viem';
import type { SpentToken } from './revert-reason';

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

/** The approval an action asked for, within its bounds (checked by the builder). */
export const approvalAmount = (spend: Erc20Spend): bigint => spend.approve ?? spend.amount;

/** `approve(spender, amount)` on the spend's token: the call an approval answer makes. */
export function approveCall(spend: Erc20Spend, amount: bigint): { to: Address; data: Hex } {
  return {
    to: spend.token.address,
    data: encodeFunctionData({
      abi: ERC20_ALLOWANCE_ABI,
      functionName: 'approve',
      args: [spend.spender!, amount],
    }),
  };
}

/** `approve(spender, amount)` dry-run from the signer at `blockNumber`: it rejects when it would revert. */
export function approveDryRun(
  client: PublicClient,
  from: Address,
  spend: Erc20Spend,
  amount: bigint,
  blockNumber: bigint,
): Promise<unknown> {
  return client.call({ account: from, blockNumber, ...approveCall(spend, amount) });
}
