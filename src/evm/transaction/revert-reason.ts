import {
  type Abi,
  BaseError,
  decodeErrorResult,
  type DecodeErrorResultReturnType,
  type Hex,
  parseAbi,
} from 'viem';
import { formatAmount } from './amounts';

/** The refusal codes of a transaction that would fail: what a client can act on. */
export type RevertCode = 'INSUFFICIENT_BALANCE' | 'INSUFFICIENT_ALLOWANCE' | 'WOULD_REVERT';

export interface RevertExplanation {
  code: RevertCode;
  /** Words for the user. */
  reason: string;
  /** The decoded revert as the contract said it (`Error("…")`, `Panic(0x11)`), for the logs. */
  raw: string;
}

/** The token a transaction spends, so a shortfall is said in its units. */
export interface SpentToken {
  symbol: string;
  decimals: number;
}

/** OpenZeppelin 5's ERC-20 errors (IERC6093): most tokens deployed since 2023 revert with them. */
export const ERC20_ERRORS = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
]);

/** Solidity's panic codes, in a user's words. */
const PANICS: Record<number, string> = {
  0x01: 'an assertion failed',
  0x11: 'an amount over- or underflowed',
  0x12: 'a division by zero',
  0x21: 'a value out of range',
  0x22: 'corrupt storage',
  0x31: 'an empty list was popped',
  0x32: 'an index was out of bounds',
  0x41: 'it ran out of memory',
  0x51: 'an uninitialised function was called',
};

/**
 * Reason strings of Uniswap V2 (and its many forks) and the TransferHelper it calls, in a user's
 * words. Matched on the text after the last `: ` so `UniswapV2Router: EXPIRED` and
 * `Pancake: EXPIRED` read the same.
 */
const REASONS: Record<string, { code: RevertCode; reason: string }> = {
  INSUFFICIENT_OUTPUT_AMOUNT: {
    code: 'WOULD_REVERT',
    reason:
      'The pools can no longer pay the minimum you would accept: try a smaller amount or more slippage',
  },
  EXCESSIVE_INPUT_AMOUNT: {
    code: 'WOULD_REVERT',
    reason: 'The pools would need more than the maximum you would pay',
  },
  INSUFFICIENT_LIQUIDITY: {
    code: 'WOULD_REVERT',
    reason: 'The pool does not hold enough for this amount',
  },
  EXPIRED: { code: 'WOULD_REVERT', reason: 'The transaction’s deadline has passed' },
  TRANSFER_FROM_FAILED: {
    code: 'WOULD_REVERT',
    reason: 'The token could not be taken from your wallet (balance or approval too low)',
  },
  TRANSFER_FAILED: { code: 'WOULD_REVERT', reason: 'The token refused the transfer' },
  ETH_TRANSFER_FAILED: { code: 'WOULD_REVERT', reason: 'The coin could not be sent' },
};

/**
 * The revert data a node sent with its refusal, anywhere in viem's error chain: a hex string, or
 * `{ data: hex }` as some nodes (Hardhat among them) nest it.
 */
export function revertDataOf(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined;
  let found: Hex | undefined;
  error.walk((e) => {
    const data = (e as { data?: unknown }).data;
    const hex =
      typeof data === 'object' && data !== null ? (data as { data?: unknown }).data : data;
    if (typeof hex === 'string' && /^0x(?:[0-9a-f]{2})*$/i.test(hex)) found = hex as Hex;
    return found !== undefined;
  });
  return found;
}

/**
 * What a revert means for the user: OpenZeppelin's ERC-20 errors, `Error(string)` reasons,
 * panics and the action's own ABI errors. `token` is the ERC-20 the transaction spends, so a
 * shortfall is said in its units; without it, in base units.
 */
export function explainRevert(
  data: Hex | undefined,
  { abi = [], token }: { abi?: Abi; token?: SpentToken } = {},
): RevertExplanation {
  if (!data || data === '0x') {
    return { code: 'WOULD_REVERT', reason: 'The transaction would fail', raw: 'revert' };
  }
  let decoded: DecodeErrorResultReturnType;
  try {
    decoded = decodeErrorResult({ abi: [...ERC20_ERRORS, ...abi], data });
  } catch {
    const selector = data.slice(0, 10);
    return {
      code: 'WOULD_REVERT',
      reason: `The transaction would fail (the contract refused it with error ${selector})`,
      raw: selector,
    };
  }
  const args: readonly unknown[] = decoded.args ?? [];
  const raw = `${decoded.errorName}(${args.map(String).join(', ')})`.slice(0, 300);
  const amount = (units: unknown): string =>
    token
      ? `${formatAmount(units as bigint, token.decimals)} ${token.symbol}`
      : `${String(units)} base units`;
  switch (decoded.errorName) {
    case 'Error': {
      const text = String(args[0]);
      const known = REASONS[text.slice(text.lastIndexOf(': ') + 1).trim()];
      return known
        ? { ...known, raw }
        : { code: 'WOULD_REVERT', reason: `The transaction would fail: ${text}`, raw };
    }
    case 'Panic':
      return {
        code: 'WOULD_REVERT',
        reason: `The transaction would fail: ${PANICS[Number(args[0])] ?? `panic ${String(args[0])}`}`,
        raw,
      };
    case 'ERC20InsufficientBalance':
      return {
        code: 'INSUFFICIENT_BALANCE',
        reason: `You have ${amount(args[1])}; this needs ${amount(args[2])}`,
        raw,
      };
    case 'ERC20InsufficientAllowance':
      return {
        code: 'INSUFFICIENT_ALLOWANCE',
        reason: `The contract may spend ${amount(args[1])} of yours; this needs ${amount(args[2])}: approve it first`,
        raw,
      };
    case 'ERC20InvalidReceiver':
      return {
        code: 'WOULD_REVERT',
        reason: `The token cannot be sent to ${String(args[0])}`,
        raw,
      };
    default:
      return { code: 'WOULD_REVERT', reason: `The transaction would fail: ${raw}`, raw };
  }
}
