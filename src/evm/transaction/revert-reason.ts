import {
  type Abi,
  BaseError,
  decodeErrorResult,
  type DecodeErrorResultReturnType,
  type Hex,
  hexToBytes,
  parseAbi,
} from 'viem';
import { formatAmount } from './amounts';
import { reasonText } from '../chains/chain-rpc';

/** The refusal codes of a transaction that would fail: what a client can act on. */
export type RevertCode = 'INSUFFICIENT_BALANCE' | 'INSUFFICIENT_ALLOWANCE' | 'WOULD_REVERT';

export interface RevertExplanation {
  code: RevertCode;
  /** Words for the user. */
  reason: string;
  /** The decoded revert as the contract said it (`Error(…)`, `Panic(17)`), for the logs. */
  raw: string;
}

/**
 * Revert data is the contract's to choose, megabytes included: only its first MAX_DECODED_BYTES
 * are decoded (arguments past them leave the error shown by selector), only the first
 * REASON_BYTES of an `Error(string)`, and `raw` holds at most MAX_RAW_CHARS.
 */
const MAX_DECODED_BYTES = 4_096;
const REASON_BYTES = 2_048;
const MAX_RAW_CHARS = 300;
const ERROR_STRING = '0x08c379a0';

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
 * shortfall is said in its units; without it, in base units. What it quotes of the contract is
 * cut by `reasonText`, as ChainRpc.read cuts it.
 */
export function explainRevert(
  data: Hex | undefined,
  { abi = [], token }: { abi?: Abi; token?: SpentToken } = {},
): RevertExplanation {
  if (!data || data === '0x') {
    return { code: 'WOULD_REVERT', reason: 'The transaction would fail', raw: 'revert' };
  }
  const selector = data.slice(0, 10).toLowerCase();
  const text = selector === ERROR_STRING ? errorString(data) : undefined;
  if (text !== undefined) {
    const raw = `Error(${reasonText(text, MAX_RAW_CHARS - 7)})`;
    const known = REASONS[text.slice(text.lastIndexOf(': ') + 1).trim()];
    const quoted = reasonText(text);
    if (known) return { ...known, raw };
    const reason = quoted ? `The transaction would fail: ${quoted}` : 'The transaction would fail';
    return { code: 'WOULD_REVERT', reason, raw };
  }
  let decoded: DecodeErrorResultReturnType;
  try {
    const head = data.slice(0, 2 + 2 * MAX_DECODED_BYTES) as Hex;
    decoded = decodeErrorResult({ abi: [...ERC20_ERRORS, ...abi], data: head });
  } catch {
    return {
      code: 'WOULD_REVERT',
      reason: `The transaction would fail (the contract refused it with error ${selector})`,
      raw: selector,
    };
  }
  const args: readonly unknown[] = decoded.args ?? [];
  const raw = reasonText(`${decoded.errorName}${listText(args, MAX_RAW_CHARS)}`, MAX_RAW_CHARS);
  const amount = (units: unknown): string =>
    token
      ? `${formatAmount(units as bigint, token.decimals)} ${token.symbol}`
      : `${String(units)} base units`;
  const said = (reason: string, code: RevertCode = 'WOULD_REVERT'): RevertExplanation => ({
    code,
    reason,
    raw,
  });
  switch (decoded.errorName) {
    case 'Panic':
      return said(
        `The transaction would fail: ${PANICS[Number(args[0])] ?? `panic ${String(args[0])}`}`,
      );
    case 'ERC20InsufficientBalance':
      return said(
        `You have ${amount(args[1])}; this needs ${amount(args[2])}`,
        'INSUFFICIENT_BALANCE',
      );
    case 'ERC20InsufficientAllowance':
      return said(
        `The contract may spend ${amount(args[1])} of yours; this needs ${amount(args[2])}: approve it first`,
        'INSUFFICIENT_ALLOWANCE',
      );
    case 'ERC20InvalidReceiver':
      return said(`The token cannot be sent to ${String(args[0])}`);
    default:
      return said(`The transaction would fail: ${reasonText(raw)}`);
  }
}

/**
 * An `Error(string)`'s first REASON_BYTES, read from its head (offset, then length): the string is
 * never decoded whole, and the data need hold no more than those bytes (a node's megabyte revert
 * arrives cut to its start: rpc-answers). Undefined when the data is not a well-formed
 * Error(string).
 */
function errorString(data: Hex): string | undefined {
  const size = (data.length - 10) / 2;
  const word = (at: number): number => {
    const hex = data.slice(10 + 2 * at, 10 + 2 * at + 64);
    // Past what the data holds, or a length no real string has: not an Error(string).
    return hex.length === 64 && /^0{48}/.test(hex) ? Number.parseInt(hex, 16) : Infinity;
  };
  const start = word(0) + 32;
  const length = start <= size ? word(start - 32) : Infinity;
  if (!Number.isInteger(size) || start + Math.min(length, REASON_BYTES) > size) return undefined;
  const bytes = hexToBytes(
    `0x${data.slice(10 + 2 * start, 10 + 2 * (start + Math.min(length, REASON_BYTES)))}`,
  );
  // `stream`: a character cut in two at REASON_BYTES is left out, not shown as `�`.
  return new TextDecoder().decode(bytes, { stream: true });
}

/** Arguments as `(a, b, [c, d])`, at most `room` characters, reading no more than that of them. */
function listText(items: readonly unknown[], room: number, [open, close] = '()'): string {
  let text = open;
  for (const item of items) {
    if (text.length >= room) break;
    text += `${text.length > 1 ? ', ' : ''}${argText(item, room - text.length)}`;
  }
  return `${text}${close}`.slice(0, room);
}

function argText(value: unknown, room: number): string {
  if (Array.isArray(value)) return listText(value, room, '[]');
  if (typeof value === 'object' && value !== null) return listText(Object.values(value), room);
  return String(value).slice(0, room);
}
