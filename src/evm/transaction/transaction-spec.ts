import type { Abi, AbiFunction, Address, Hex } from 'viem';
import type { Erc20Spend } from './erc20-spend';

/**
 * A contract call: ONE function of an ABI (published as the answer's `abi`) and its arguments in
 * order. Either the function itself (`parseAbiItem('function transfer(address to, uint256
 * amount)')`), or a whole ABI such as viem's `erc20Abi` with the function named:
 * `{ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }`. A whole ABI without
 * `functionName` does not compile, and is a 500 `BUILDER_MISUSE` naming the fix when it runs
 * untyped (ts-jest only transpiles).
 */
export type ContractCall =
  | { abi: AbiFunction; functionName?: string; args: readonly unknown[] }
  | { abi: Abi; functionName: string; args: readonly unknown[] };

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
