import type { Abi, Address, Hex, PublicClient } from 'viem';
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
  /**
   * False when a block was mined while the node answered an unpinned batch (its two
   * `eth_blockNumber` differ): the reads may mix two states, so the batch is sent again pinned.
   */
  consistent: boolean;
  balance: Settled<bigint>;
  /** Read only when a candidate sends the coin (the gas of a token call is not checked). */
  gasPrice: Settled<bigint>;
  reads: Settled<unknown>[];
  calls: Settled<{ data?: Hex }>[];
  /** By token address (lower case), and by `token:spender`. */
  tokenBalances: Map<string, Settled<bigint>>;
  allowances: Map<string, Settled<bigint>>;
}

export const allowanceKey = (spend: Erc20Spend): string =>
  `${spend.token.address.toLowerCase()}:${spend.spender?.toLowerCase()}`;

/**
 * Every read and dry run of a check in ONE JSON-RPC batch (viem's batching transport sends the
 * requests made in one tick together, in the order they were made), all of them reading one block.
 *
 * Unpinned (`block` undefined, the steady state): the state reads ask `latest`, between two
 * `eth_blockNumber`s, the first request of the batch and the last. A node that answers a batch's
 * calls one after another proves one head when both say the same number: heads only grow, so
 * every call between them read that block. geth does (go-ethereum rpc/handler.go, handleBatch:
 * `for _, msg := range calls { h.handleCallMsg(cp, msg) }` on one goroutine); Hardhat starts them
 * in order (hardhat/internal/hardhat-network/jsonrpc/handler.js maps the batch in order) and mines
 * only on a transaction, so its head moves between two calls only then. When they differ (a block
 * mined while the node answered: rare, a node answers a batch in milliseconds), the caller re-sends
 * the batch pinned to the later head. Not proved: a node that runs a batch's calls concurrently
 * (Erigon's maxBatchConcurrency) or a load balancer that splits a batch across backends; point
 * RPC_URL_<id> at one node that answers in order (docs/chains-and-transactions.md).
 *
 * Why not pin every batch to the last head seen (the first round did): on a live chain the head
 * moves every block, so after each block the first check learned it was stale and paid a second
 * round trip; with 2 s blocks that is most answers. A head fed from the chain follower only
 * shortens that window (it polls every OUTCOME_POLL_MS, and only while an intent is open). The
 * bracket costs one call and never a round trip.
 *
 * The views (`reads`, token balances, allowances) travel in ONE eth_call when there are two or
 * more: viem's multicall, deployless (Multicall3's code sent with the call, so no chain needs it
 * deployed), which also reads them all in one EVM execution. Only the pending nonce (for the
 * intent) and the gas price are not state reads at a block.
 */
export async function gather(
  client: PublicClient,
  from: Address,
  block: bigint | undefined,
  candidates: readonly BatchCandidate[],
  reads: readonly ChainRead[],
): Promise<Gathered & { nonce: Settled<number> }> {
  const at = block === undefined ? {} : { blockNumber: block };
  const spends = candidates.flatMap((c) => (c.spend ? [c.spend] : []));
  const tokens = unique(spends, (s) => s.token.address.toLowerCase());
  const spenders = unique(
    spends.filter((s) => s.spender),
    allowanceKey,
  );
  const sendsCoin = candidates.some((c) => (c.tx.value ?? 0n) > 0n);
  const request = (tx: UnsignedTransaction) =>
    ({ account: from, to: tx.to, data: tx.data, value: tx.value, ...at }) as const;
  const views: ChainRead[] = [
    ...reads,
    ...tokens.map((s) => ({
      address: s.token.address,
      abi: ERC20_ALLOWANCE_ABI,
      functionName: 'balanceOf',
      args: [from],
    })),
    ...spenders.map((s) => ({
      address: s.token.address,
      abi: ERC20_ALLOWANCE_ABI,
      functionName: 'allowance',
      args: [from, s.spender!],
    })),
  ];
  const blockNumber = (): Promise<Settled<bigint>> =>
    settle(client.request({ method: 'eth_blockNumber' }).then(BigInt));
  // The order of these requests is the order of the batch: the opening head first, the closing last.
  const opening = block === undefined ? blockNumber() : undefined;
  const started = {
    balance: settle(client.getBalance({ address: from, ...at })),
    gasPrice: sendsCoin ? settle(client.getGasPrice()) : settle(Promise.resolve(0n)),
    views: readViews(client, views, at),
    calls: candidates.map((c) => settle(client.call(request(c.tx)))),
    // For the intent (src/outcomes): a later transaction at this nonce replaces the answer.
    nonce: settle(client.getTransactionCount({ address: from, blockTag: 'pending' })),
  };
  const closing = block === undefined ? blockNumber() : undefined;
  const viewed = await started.views;
  const tokenBalances = viewed.slice(reads.length, reads.length + tokens.length);
  const allowances = viewed.slice(reads.length + tokens.length);
  const [open, close] = [await opening, await closing];
  const head = (bracket: Settled<bigint> | undefined): bigint => {
    if (bracket?.status === 'rejected') throw bracket.reason;
    return bracket?.value ?? block!;
  };
  return {
    block: head(close),
    consistent: head(open) === head(close),
    balance: await started.balance,
    gasPrice: await started.gasPrice,
    reads: viewed.slice(0, reads.length),
    calls: await Promise.all(started.calls),
    tokenBalances: new Map(
      tokens.map((s, i) => [s.token.address.toLowerCase(), tokenBalances[i] as Settled<bigint>]),
    ),
    allowances: new Map(
      spenders.map((s, i) => [allowanceKey(s), allowances[i] as Settled<bigint>]),
    ),
    nonce: await started.nonce,
  };
}

/** The views in one deployless multicall when there are two or more; a lone view as itself. */
async function readViews(
  client: PublicClient,
  views: readonly ChainRead[],
  at: { blockNumber?: bigint },
): Promise<Settled<unknown>[]> {
  if (views.length < 2) {
    return Promise.all(
      views.map((view) => settle<unknown>(client.readContract({ ...view, ...at }))),
    );
  }
  // batchSize 0: never split into several eth_calls (the views are bounded by configuration).
  const results = await client.multicall({
    contracts: views,
    allowFailure: true,
    deployless: true,
    batchSize: 0,
    ...at,
  });
  return results.map((r): Settled<unknown> =>
    r.status === 'success'
      ? { status: 'fulfilled', value: r.result }
      : { status: 'rejected', reason: r.error },
  );
}

export const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  Promise.allSettled([promise]).then(([result]) => result);

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}
