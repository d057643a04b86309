import { type Address, concatHex, decodeAbiParameters, encodeAbiParameters, type Hex } from 'viem';
import { RpcAnswerError } from '../chains/rpc-answers';
import type { RpcCall } from '../chains/rpc-batch';

/**
 * The init code of a contract that is never deployed: run by an `eth_call` without `to`, it
 * returns `abi.encode(block.number, balance(account), extcodesize(account))`, the block the call
 * read, the account's coin and the size of its code at that block, in ONE call where
 * `eth_blockNumber`, `eth_getBalance` and `eth_getCode` took three. The code size tells a smart
 * account (a contract, or an EOA delegated by EIP-7702) whose gas a paymaster may pay. A
 * creation's output is the code it would deposit: 96 bytes whose first is 0 (a block number's top
 * byte), so EIP-3541's refusal of code starting 0xEF never applies.
 *
 *   PUSH20 account · DUP1 · BALANCE · PUSH1 0x20 · MSTORE   memory[32..64] = balance
 *   EXTCODESIZE · PUSH1 0x40 · MSTORE                       memory[64..96] = code size
 *   NUMBER · PUSH1 0 · MSTORE                               memory[0..32]  = block.number
 *   PUSH1 0x60 · PUSH1 0 · RETURN                           return memory[0..96]
 */
const probeCode = (account: Address): Hex =>
  concatHex(['0x73', account, '0x80316020523b6040524360005260606000f3']);

/** What the probe returns, encoded: for a stub node answering it. */
export const headProbeAnswer = (block: bigint, balance: bigint, codeSize = 0n): Hex =>
  encodeAbiParameters(PROBE_ANSWER, [block, balance, codeSize]);

const PROBE_ANSWER = [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }] as const;

/** The probe as a call of a batch, reading `tag`. */
export function headProbe(account: Address, tag: string): RpcCall {
  return { method: 'eth_call', params: [{ data: probeCode(account) }, tag] };
}

/**
 * The probe's answer: the block its call ran in, and the balance read there. Anything but the 64
 * bytes its code returns is the node's wrong answer (RpcAnswerError: malformed, a 503).
 */
export function readHeadProbe(data: Hex): { block: bigint; balance: bigint; codeSize: bigint } {
  if (typeof data !== 'string' || !/^0x[0-9a-fA-F]{192}$/.test(data)) {
    throw new RpcAnswerError('the head probe (eth_call)');
  }
  const [block, balance, codeSize] = decodeAbiParameters(PROBE_ANSWER, data);
  return { block, balance, codeSize };
}
