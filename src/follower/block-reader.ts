import { type Hash, type Hex, numberToHex } from 'viem';
import type { RpcCall } from '../evm/chains/rpc-batch';
import { isAnswerTooLarge } from '../outbound/http/upstream.error';
import type { FollowedTransaction } from './followed-block';

/** How the follower reaches a chain's node: RpcBatch's `send`, one request per call list. */
export interface FollowerRpc {
  send(calls: readonly RpcCall[]): Promise<PromiseSettledResult<unknown>[]>;
}

/** What the follower checks a block's place in the chain with. */
export interface BlockHeader {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
}

/** A block read: its transactions when they fit in one answer, else how many to read in pages. */
export interface ReadBlock extends BlockHeader {
  transactions?: FollowedTransaction[];
  count: number;
}

/** One page of a block's transactions, and the indexes skipped, each alone over the cap. */
export interface TransactionPage {
  transactions: FollowedTransaction[];
  oversize: number[];
}

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isHex = (value: unknown): value is Hex =>
  typeof value === 'string' && /^0x[0-9a-f]*$/i.test(value);

/**
 * Reads blocks within bounded memory: each answer the follower holds is under the RPC answer cap
 * (MAX_ANSWER_BYTES), whatever the block's size. A block is first asked whole, with its
 * transactions, in one call: what every small block costs. One over the cap is read again as a
 * header with transaction hashes, then its transactions in pages of at most `maxCalls` calls in
 * one batch; a page over the cap is halved, down to one transaction, and a transaction over the
 * cap alone is reported (its index in `oversize`) instead of failing the block at every pass.
 */
export class BlockReader {
  constructor(
    private readonly rpc: FollowerRpc,
    private readonly maxCalls: number,
  ) {}

  async head(): Promise<bigint> {
    return BigInt(hexOf(await this.one('eth_blockNumber', []), 'eth_blockNumber'));
  }

  /** Block `number`, whole when it fits in an answer, else its header and transaction count. */
  async block(number: bigint): Promise<ReadBlock> {
    let raw: unknown;
    try {
      raw = await this.one('eth_getBlockByNumber', [numberToHex(number), true]);
    } catch (error) {
      if (!isAnswerTooLarge(error)) throw error;
      return this.header(number);
    }
    const block = blockOf(raw, number);
    const transactions = listOf(block.transactions).map(transactionOf);
    return { ...headerOf(block), transactions, count: transactions.length };
  }

  /** Block `number` with its transaction hashes only: a few bytes a transaction. */
  async header(number: bigint): Promise<ReadBlock> {
    const block = blockOf(await this.one('eth_getBlockByNumber', [numberToHex(number), false]));
    return { ...headerOf(block), count: listOf(block.transactions).length };
  }

  /** The block's transactions in pages, in order, each read by block hash and index. */
  async *pages(block: ReadBlock): AsyncGenerator<TransactionPage> {
    if (block.transactions) {
      yield { transactions: block.transactions, oversize: [] };
      return;
    }
    let size = this.maxCalls;
    for (let first = 0; first < block.count;) {
      const count = Math.min(size, block.count - first);
      const indexes = Array.from({ length: count }, (_, i) => first + i);
      const calls = indexes.map((index) => ({
        method: 'eth_getTransactionByBlockHashAndIndex',
        params: [block.hash, numberToHex(index)],
      }));
      let results: PromiseSettledResult<unknown>[];
      try {
        results = await this.rpc.send(calls);
      } catch (error) {
        if (!isAnswerTooLarge(error)) throw error;
        if (count > 1) {
          // Smaller pages for the rest of the block: its neighbours are likely as large.
          size = Math.ceil(count / 2);
          continue;
        }
        yield { transactions: [], oversize: [first] };
        first += 1;
        continue;
      }
      const transactions = results.map((result) => {
        if (result.status === 'rejected') throw result.reason;
        // Null: the node no longer has this block (a reorg while reading it).
        if (result.value === null) throw new Error(`Block ${block.number} left the chain`);
        return transactionOf(result.value);
      });
      yield { transactions, oversize: [] };
      first += count;
    }
  }

  private async one(method: string, params: unknown[]): Promise<unknown> {
    const [result] = await this.rpc.send([{ method, params }]);
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  }
}

function blockOf(raw: unknown, number?: bigint): Json {
  if (raw === null && number !== undefined) throw new Error(`The node has no block ${number} yet`);
  if (!isJson(raw)) throw new Error('The node answered a block that is not an object');
  return raw;
}

function headerOf(block: Json): BlockHeader {
  return {
    number: BigInt(hexOf(block.number, 'number')),
    hash: hexOf(block.hash, 'hash'),
    parentHash: hexOf(block.parentHash, 'parentHash'),
  };
}

function listOf(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new Error("The node's block has no transaction list");
  return value;
}

/** A transaction as the node sends it, cut to what matching needs. */
function transactionOf(raw: unknown): FollowedTransaction {
  if (!isJson(raw)) throw new Error("The node's transaction is not an object");
  return {
    hash: hexOf(raw.hash, 'hash'),
    from: hexOf(raw.from, 'from'),
    to: raw.to === null || raw.to === undefined ? null : hexOf(raw.to, 'to'),
    input: hexOf(raw.input, 'input'),
    value: BigInt(hexOf(raw.value, 'value')),
    nonce: Number(BigInt(hexOf(raw.nonce, 'nonce'))),
  };
}

function hexOf(value: unknown, field: string): Hex {
  if (!isHex(value)) throw new Error(`The node's ${field} is not hex`);
  return value;
}
