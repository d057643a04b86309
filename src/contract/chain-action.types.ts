import type { Abi, Address, ContractFunctionName } from 'viem';
import type { ActionParameter, ChainContext, ParamOption } from './action.types';

/*
 * The platform's other action kinds: the client builds the transaction itself from the document
 * and the user's wallet sends it, with no call to this service. Declared with defineChainAction,
 * held by their mini-app (MiniAppDeclaration.chainActions) and published as declared.
 */

/**
 * `blockchain`: a contract call the client builds from `address`, `abi`, `functionName` and
 * `params` (one per ABI input, in the ABI's order, each maybe `fixed`), sending `amount` of the
 * native coin with it.
 */
export interface BlockchainAction<A extends Abi = Abi> {
  type: 'blockchain';
  label: string;
  description?: string;
  chains: ChainContext;
  /** The contract, EIP-55 checksummed. */
  address: Address;
  abi: A;
  /** A state-changing function of `abi`, not overloaded. */
  functionName: ContractFunctionName<A, 'nonpayable' | 'payable'>;
  /** One per input of the function, in order, named as the ABI names them. */
  params?: readonly ActionParameter[];
  /** Native coin sent with the call, in whole coins (`0.01`); only for a payable function. */
  amount?: number;
}

/**
 * How the recipient of a transfer is chosen when `to` is not fixed. Field names are the SDK's
 * (`type` since 2.20.11; an `inputType` makes its validator refuse the whole document).
 */
export interface RecipientChoice {
  /** `select` (one of `options`) or `input` (typed in): what the platform's validator accepts. */
  type: 'select' | 'input';
  options?: readonly ParamOption[];
  defaultValue?: Address;
  label?: string;
  description?: string;
  required?: boolean;
}

/** How the amount of a transfer is chosen when `amount` is not fixed. */
export interface AmountChoice {
  /** `select` or `radio` (one of `options`), or `input` (typed in); the SDK also takes it unset. */
  type?: 'select' | 'radio' | 'input';
  /** Values are amounts in whole coins. */
  options?: readonly ParamOption[];
  defaultValue?: number;
  label?: string;
  description?: string;
  required?: boolean;
}

/**
 * `transfer`: the native coin to `to` (or a recipient the user chooses), `amount` whole coins
 * (or an amount the user chooses). A fixed value wins over its choice.
 */
export interface TransferAction {
  type: 'transfer';
  label: string;
  description?: string;
  chains: ChainContext;
  /** The recipient, EIP-55 checksummed. */
  to?: Address;
  /** Whole coins (`0.01`): positive, at most 18 decimals, no exponent. */
  amount?: number;
  recipient?: RecipientChoice;
  amountConfig?: AmountChoice;
}

/** An action the client builds itself, as declared and as published. */
export type ChainAction = BlockchainAction | TransferAction;

/**
 * What a mini-app lists: a chain action, or a function of the environment giving one (or none,
 * when its configuration is unset), read once at boot. Env as src/config reads it.
 */
export type ChainActionSource =
  ChainAction | ((env: Readonly<Record<string, string | undefined>>) => ChainAction | undefined);

/** A published action the service answers (`type: 'dynamic'`), not one the client builds itself. */
export const isDynamicAction = <T extends { type: string }>(
  action: T,
): action is Extract<T, { type: 'dynamic' }> => action.type === 'dynamic';
