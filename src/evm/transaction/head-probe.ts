import { type Address, concatHex, decodeAbiParameters, type Hex } from 'viem';
import { RpcAnswerError } from '../chains/rpc-answers';
import type { RpcCall } from '../chains/rpc-batch';

/**
 * The init code of a contract that is never deployed: run by an `eth_call` without `to`, it
 * returns `abi.encode(block.number, balance(account))`, the block the call read and the account's
 * coin at that block, in ONE call where `eth_blockNumber` and `eth_getBalance` took two. A
 * creation's output is the code it would deposit: 64 bytes whose first is 0 (a block number's top
 * byte), so EIP-3541's refusal of code starting 0xEF never applies.
 *
 *   PUSH20 account · BALANCE · PUSH1 0x20 · MSTORE     memory[32..64] = balance
 *   NUMBER · PUSH1 0 · MSTORE                          memory[0..32]  = block.number
 *   PUSH1 0x40 · PUSH1 0 · RETURN                      return memory[0..64]
 */
const probeCode = (account: Address): Hex =>
  concatHex(['0x73', account, '0x316020524360005260406000f3']);

/** The probe as a call of a batch, reading `tag`. */
export function headProbe(account: Address, tag: string): RpcCall {
  return { method: 'eth_call', params: [{ data: probeCode(account) }, tag] };
}

/**
 * The probe's answer: the block its call ran in, and the balance read there. Anything but the 64
 * bytes its code returns is the node's wrong answer (RpcAnswerError: malformed, a 503).
 */
export function readHeadProbe(data: Hex): { block: bigint; balance: bigint } {
  if (typeof data !== 'string' || !/^0x[0-9a-fA-F]{128}$/.test(data)) {
    throw new RpcAnswerError('the head probe (eth_call)');
  }
  const [block, balance] = decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], data);
  return { block, balance };
}
