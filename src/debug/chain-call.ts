import { type Address, encodeFunctionData, numberToHex } from 'viem';
import type { BlockchainAction, ChainAction, TransferAction } from '../contract/chain-action.types';
import { checksumProblem, coinsToWei, toAbiValue } from '../kit/chain-actions/chain-values';

/** What the user filled in on the page: text from inputs, by parameter name (`to`, `amount`). */
export type ChainCallInputs = Readonly<Record<string, string | undefined>>;

/** The call built as the platform's client builds it, and as `eth_sendTransaction` takes it. */
export interface ChainCall {
  chainId: number;
  /** to, data (a contract call only), value: quantities in hex; the wallet adds `from`. */
  walletRequest: Record<string, string>;
  /** What the user is asked to sign, readable: function and arguments, or recipient and amount. */
  shown: [string, string][];
}

/** A value the user cannot send: the page shows the message. */
export class ChainCallError extends Error {}

const given = (text: string | undefined): string | undefined =>
  text === undefined || text.trim() === '' ? undefined : text.trim();

/** Whole coins typed or chosen (`0.05`) as a number the amount rules accept. */
function coins(text: string | number | undefined, what: string): bigint {
  const value = typeof text === 'string' ? Number(text) : text;
  if (value === undefined || Number.isNaN(value)) throw new ChainCallError(`${what} is missing`);
  try {
    return coinsToWei(value);
  } catch (error) {
    throw new ChainCallError(`${what}: ${(error as Error).message}`);
  }
}

/** Text from an input as the ABI type wants it: booleans from "true"/"false", the rest as text. */
const fromInput = (text: string, type: string): unknown =>
  type === 'bool' ? text === 'true' : text;

function blockchainCall(
  action: BlockchainAction,
  inputs: ChainCallInputs,
  from: Address,
): ChainCall {
  const fn = action.abi.find(
    (item) => item.type === 'function' && item.name === action.functionName,
  );
  if (!fn || fn.type !== 'function') throw new ChainCallError('the function is not in the ABI');
  const params = action.params ?? [];
  const args = fn.inputs.map((input, index) => {
    const param = params[index];
    const typed = param?.fixed ? undefined : given(inputs[input.name ?? '']);
    const value = typed !== undefined ? fromInput(typed, input.type) : param?.value;
    if (value === undefined) throw new ChainCallError(`${param?.label ?? input.name} is missing`);
    try {
      return toAbiValue(value, input, from);
    } catch (error) {
      throw new ChainCallError(`${param?.label ?? input.name}: ${(error as Error).message}`);
    }
  });
  const data = encodeFunctionData({ abi: [fn], functionName: fn.name, args });
  const value = action.amount === undefined ? 0n : coins(action.amount, 'amount');
  return {
    chainId: action.chains.source,
    walletRequest: { to: action.address, data, value: numberToHex(value) },
    shown: [
      ['contract', action.address],
      ['function', fn.name],
      ...fn.inputs.map((input, i): [string, string] => [
        `${input.name ?? i} (${input.type})`,
        String(args[i]),
      ]),
      ['value (wei)', value.toString()],
    ],
  };
}

function transferCall(action: TransferAction, inputs: ChainCallInputs): ChainCall {
  const to = action.to ?? given(inputs.to) ?? action.recipient?.defaultValue;
  const problem = checksumProblem(to);
  if (problem) throw new ChainCallError(`recipient: ${problem}`);
  const value = coins(
    action.amount ?? given(inputs.amount) ?? action.amountConfig?.defaultValue,
    'amount',
  );
  return {
    chainId: action.chains.source,
    walletRequest: { to: to as Address, value: numberToHex(value) },
    shown: [
      ['to', to as Address],
      ['value (wei)', value.toString()],
    ],
  };
}

/**
 * Builds a chain action's transaction from the published declaration and the user's inputs, as
 * the platform's client does (viem's encoder, whole coins to wei); fixed values win over inputs.
 */
export function buildChainCall(
  action: ChainAction,
  inputs: ChainCallInputs,
  from: Address,
): ChainCall {
  return action.type === 'blockchain'
    ? blockchainCall(action, inputs, from)
    : transferCall(action, inputs);
}
