import {
  type Address,
  decodeEventLog,
  decodeFunctionData,
  type Hex,
  type Log,
  parseAbi,
  toEventSelector,
} from 'viem';
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

/**
 * What the follower reads of an EntryPoint: `handleOps` and `UserOperationEvent`, the same in
 * v0.7 and v0.8 (PackedUserOperation). Written out rather than imported from
 * `viem/account-abstraction`, whose module adds about 180 ms to every boot for two ABI items.
 */
export const ENTRY_POINT_ABI = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function handleOps(PackedUserOperation[] ops, address beneficiary)',
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
]);

/** The canonical EntryPoints (viem's `entryPoint07Address` and `entryPoint08Address`). */
export const ENTRY_POINTS: ReadonlySet<string> = new Set([
  '0x0000000071727de22e5e9d8baf0edac6f37da032',
  '0x4337084d9e255ff0702461cf8895ce9e3b5ff108',
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
  if (!isEntryPoint(to)) return undefined;
  try {
    const decoded = decodeFunctionData({ abi: ENTRY_POINT_ABI, data: input });
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
  if (!isEntryPoint(how.entryPoint)) return undefined;
  for (const log of logs) {
    if (!same(log.address, how.entryPoint)) continue;
    try {
      const event = decodeEventLog({ abi: ENTRY_POINT_ABI, data: log.data, topics: log.topics });
      if (event.eventName !== 'UserOperationEvent') continue;
      const { sender, nonce, success } = event.args;
      if (same(sender, user) && nonce === how.nonce) return success ? 'confirmed' : 'reverted';
    } catch {
      // Another event of the EntryPoint's.
    }
  }
  return undefined;
}
