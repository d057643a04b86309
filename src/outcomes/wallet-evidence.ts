import {
  type Address,
  decodeEventLog,
  decodeFunctionData,
  type Hex,
  type Log,
  parseAbi,
  toEventSelector,
} from 'viem';
import {
  entryPoint07Abi,
  entryPoint07Address,
  entryPoint08Abi,
  entryPoint08Address,
} from 'viem/account-abstraction';
import { holdsCall } from '../evm';

/**
 * How a smart-contract wallet's transaction shows that it ran the user's call (issue 42). The
 * sender of such a transaction is not the user: a bundler sends an ERC-4337 user operation, any
 * account may send a Safe's `execTransaction`. So the call's tag in the input is not enough (anyone
 * can copy bytes into a transaction): the wrapper must name the user as the account that ran it,
 * and its own event must say how it went.
 *
 * - ERC-4337 (EntryPoint v0.7 and v0.8, at their canonical addresses): `handleOps` carries an
 *   operation whose `sender` is the user and whose `callData` holds the call; the EntryPoint's
 *   `UserOperationEvent` for that sender and nonce says `success`.
 * - Safe: the transaction calls the user's Safe, whose `execTransaction` data holds the call
 *   (directly, or in a MultiSend batch); the Safe's `ExecutionSuccess` / `ExecutionFailure` says how
 *   it went (both only follow valid owner signatures).
 * - Anything the user's own key sent (a plain call, an EIP-7702 account's batch,
 *   `wallet_sendCalls` as one transaction) is read by the transaction's status.
 */

const ENTRY_POINTS: ReadonlyMap<string, typeof entryPoint07Abi | typeof entryPoint08Abi> = new Map<
  string,
  typeof entryPoint07Abi | typeof entryPoint08Abi
>([
  [entryPoint07Address.toLowerCase(), entryPoint07Abi],
  [entryPoint08Address.toLowerCase(), entryPoint08Abi],
]);

export const isEntryPoint = (to: string | null): boolean =>
  to !== null && ENTRY_POINTS.has(to.toLowerCase());

const same = (a: string | null | undefined, b: string): boolean =>
  typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** The nonce of the user's operation in a `handleOps` input that runs `data`, if any. */
export function userOperationOf(
  to: Address,
  input: Hex,
  user: Address,
  data: Hex,
): bigint | undefined {
  const abi = ENTRY_POINTS.get(to.toLowerCase());
  if (!abi) return undefined;
  try {
    const decoded = decodeFunctionData({ abi, data: input });
    if (decoded.functionName !== 'handleOps') return undefined;
    const [ops] = decoded.args;
    const op = ops.find((o) => same(o.sender, user) && holdsCall(o.callData, data));
    return op?.nonce;
  } catch {
    return undefined;
  }
}

const SAFE_ABI = parseAbi([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
]);
const EXECUTION_SUCCESS = toEventSelector('ExecutionSuccess(bytes32,uint256)');
const EXECUTION_FAILURE = toEventSelector('ExecutionFailure(bytes32,uint256)');

/** Whether `input` is a Safe's `execTransaction` whose transaction holds `data`. */
export function isSafeCall(input: Hex, data: Hex): boolean {
  try {
    const decoded = decodeFunctionData({ abi: SAFE_ABI, data: input });
    return holdsCall(decoded.args[2], data);
  } catch {
    return false;
  }
}

/** How a wrapped call went, by its wallet's own events; undefined when they say nothing of it. */
export function wrappedOutcome(
  how: { sighting: 'user-operation'; nonce: bigint; entryPoint: Address } | { sighting: 'safe' },
  user: Address,
  logs: readonly Log[],
): 'confirmed' | 'reverted' | undefined {
  if (how.sighting === 'safe') {
    const mine = logs.filter((log) => same(log.address, user));
    if (mine.some((log) => log.topics[0] === EXECUTION_SUCCESS)) return 'confirmed';
    if (mine.some((log) => log.topics[0] === EXECUTION_FAILURE)) return 'reverted';
    return undefined;
  }
  const abi = ENTRY_POINTS.get(how.entryPoint.toLowerCase());
  if (!abi) return undefined;
  for (const log of logs) {
    if (!same(log.address, how.entryPoint)) continue;
    try {
      const event = decodeEventLog({ abi, data: log.data, topics: log.topics });
      if (event.eventName !== 'UserOperationEvent') continue;
      const { sender, nonce, success } = event.args;
      if (same(sender, user) && nonce === how.nonce) return success ? 'confirmed' : 'reverted';
    } catch {
      // Another event of the EntryPoint's.
    }
  }
  return undefined;
}
