import type { Abi, Address, Hex, PublicClient } from 'viem';
import type { ChainInfo } from '../chains/chains.config';
import { ERC20_ALLOWANCE_ABI, type Erc20Spend } from './erc20-spend';
import type { UnsignedTransaction } from './tx-serialization';

/** A view call answered in the same batch as the checks, at the same block. */
export interface ChainRead {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
}

/** One transaction that could be answered: what it sends, and the ERC-20 it takes. */
export interface BatchCandidate {
  tx: UnsignedTransaction;
  spend?: Erc20Spend;
}

type Settled<T> = PromiseSettledResult<T>;

/** What one batch answered, every state read at block `block`. */
export interface Gathered {
  block: bigint;
  /** The node's head when it answered the batch: above `block` when blocks came since. */
  head: bigint;
  balance: Settled<bigint>;
  /** Read only when a candidate sends the coin (the gas of a token call is not checked). */
  gasPrice: Settled<bigint>;
  reads: Settled<unknown>[];
  calls: Settled<{ data?: Hex }>[];
  gas: Settled<bigint>[];
  /** By token address (lower case), and by `token:spender`. */
  tokenBalances: Map<string, Settled<bigint>>;
  allowances: Map<string, Settled<bigint>>;
}

export const allowanceKey = (spend: Erc20Spend): string =>
  `${spend.token.address.toLowerCase()}:${spend.spender?.toLowerCase()}`;

/**
 * Every read and dry run of a check in ONE JSON-RPC batch (viem's batching transport sends calls
 * started in one tick together), each state read pinned to `block` so that all of them see one
 * state: nodes resolve `latest` per call, and a block mined mid-batch would otherwise mix two.
 * The node's head rides along (eth_blockNumber) so that the caller knows how old `block` is.
 * Only the pending nonce (for the intent) and the gas price are not state reads at a block.
 */
export async function gather(
  client: PublicClient,
  from: Address,
  block: bigint,
  candidates: readonly BatchCandidate[],
  reads: readonly ChainRead[],
): Promise<Gathered & { nonce: Settled<number> }> {
  const at = { blockNumber: block };
  const spends = candidates.flatMap((c) => (c.spend ? [c.spend] : []));
  const tokens = unique(spends, (s) => s.token.address.toLowerCase());
  const spenders = unique(
    spends.filter((s) => s.spender),
    allowanceKey,
  );
  const sendsCoin = candidates.some((c) => (c.tx.value ?? 0n) > 0n);
  const request = (tx: UnsignedTransaction) =>
    ({ account: from, to: tx.to, data: tx.data, value: tx.value, ...at }) as const;
  const started = {
    head: settle(client.getBlockNumber({ cacheTime: 0 })),
    balance: settle(client.getBalance({ address: from, ...at })),
    gasPrice: sendsCoin ? settle(client.getGasPrice()) : settle(Promise.resolve(0n)),
    reads: reads.map((read) => settle<unknown>(client.readContract({ ...read, ...at }))),
    calls: candidates.map((c) => settle(client.call(request(c.tx)))),
    gas: candidates.map((c) =>
      settle((c.tx.value ?? 0n) > 0n ? client.estimateGas(request(c.tx)) : Promise.resolve(0n)),
    ),
    tokens: tokens.map((s) =>
      settle(
        client.readContract({
          address: s.token.address,
          abi: ERC20_ALLOWANCE_ABI,
          functionName: 'balanceOf',
          args: [from],
          ...at,
        }),
      ),
    ),
    allowances: spenders.map((s) =>
      settle(
        client.readContract({
          address: s.token.address,
          abi: ERC20_ALLOWANCE_ABI,
          functionName: 'allowance',
          args: [from, s.spender!],
          ...at,
        }),
      ),
    ),
    // For the intent (src/outcomes): a later transaction at this nonce replaces the answer.
    nonce: settle(client.getTransactionCount({ address: from, blockTag: 'pending' })),
  };
  const head = await started.head;
  const [tokenBalances, allowances] = await Promise.all([
    Promise.all(started.tokens),
    Promise.all(started.allowances),
  ]);
  return {
    block,
    head: head.status === 'fulfilled' ? head.value : block,
    balance: await started.balance,
    gasPrice: await started.gasPrice,
    reads: await Promise.all(started.reads),
    calls: await Promise.all(started.calls),
    gas: await Promise.all(started.gas),
    tokenBalances: new Map(tokens.map((s, i) => [s.token.address.toLowerCase(), tokenBalances[i]])),
    allowances: new Map(spenders.map((s, i) => [allowanceKey(s), allowances[i]])),
    nonce: await started.nonce,
  };
}

/**
 * The block each chain's checks pin to: the head the node last showed. Kept per process, so in
 * the steady state (no new block since the last answer) a check is one round trip; the first
 * check of a chain reads the head first.
 */
export class ChainHeads {
  private readonly heads = new Map<number, bigint>();

  async pin(chain: ChainInfo, client: PublicClient): Promise<bigint> {
    const known = this.heads.get(chain.chainId);
    if (known !== undefined) return known;
    const head = await client.getBlockNumber({ cacheTime: 0 });
    this.saw(chain, head);
    return head;
  }

  saw(chain: ChainInfo, head: bigint): void {
    const known = this.heads.get(chain.chainId);
    if (known === undefined || head > known) this.heads.set(chain.chainId, head);
  }
}

export const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  Promise.allSettled([promise]).then(([result]) => result);

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}
