import {
  type Abi,
  type Address,
  formatTransactionRequest,
  type Hex,
  hexToBigInt,
  hexToNumber,
  numberToHex,
} from 'viem';
import { getCallError } from 'viem/utils';
import type { RpcBatch, RpcCall } from '../chains/rpc-batch';
import { multicall3Code, viewsCall } from './batch-views';
import { headProbe, readHeadProbe } from './head-probe';
import { approvalAmount, approveCall, ERC20_ALLOWANCE_ABI, type Erc20Spend } from './erc20-spend';
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
  /** The size of the user's code: above 0 for a smart account (a contract, or a 7702 delegation). */
  codeSize: Settled<bigint>;
  /** Read only when a candidate sends the coin (the gas of a token call is not checked). */
  gasPrice: Settled<bigint>;
  reads: Settled<unknown>[];
  calls: Settled<{ data?: Hex }>[];
  /** By token address (lower case), and by `token:spender`. */
  tokenBalances: Map<string, Settled<bigint>>;
  allowances: Map<string, Settled<bigint>>;
  /**
   * By `approvalKey`: each spender's `approve(spender, amount)` dry-run from the user at the same
   * block, for the answer to give when the allowance falls short (the approval, step 1 of 2). In
   * the batch whether or not the allowance turns out short, so that the approval answer, too,
   * costs one round trip.
   */
  approvals: Map<string, Settled<{ data?: Hex }>>;
}

export const allowanceKey = (spend: Erc20Spend): string =>
  `${spend.token.address.toLowerCase()}:${spend.spender?.toLowerCase()}`;

/** The approval a spend asks for: its token, spender and amount. */
export const approvalKey = (spend: Erc20Spend): string =>
  `${allowanceKey(spend)}:${approvalAmount(spend)}`;

/**
 * Every read and dry run of a check in ONE JSON-RPC batch (RpcBatch: the calls written out here,
 * in this order, and answered with viem's decoders and errors), all of them reading one block.
 *
 * Unpinned (`block` undefined, the steady state): the state reads ask `latest`, between two heads,
 * the check's first state read and its last call (checks of the same turn share an HTTP request,
 * each one's calls together and in order). The first is the head probe (head-probe.ts): one
 * eth_call giving `block.number` and the user's balance. The last is `eth_blockNumber`. A node
 * that answers a batch's calls one after another proves one head when both say the same number:
 * heads only grow, so every call between them read that block. geth does (go-ethereum
 * rpc/handler.go, handleBatch: `for _, msg := range calls { h.handleCallMsg(cp, msg) }` on one
 * goroutine); Hardhat starts them in order (hardhat/internal/hardhat-network/jsonrpc/handler.js maps
 * the batch in order) and mines only on a transaction. When they differ (a block mined while the
 * node answered: rare, a node answers a batch in milliseconds), the caller re-sends the batch
 * pinned to the later head. Not proved: a node that runs a batch's calls concurrently (Erigon's
 * maxBatchConcurrency) or a load balancer that splits a batch across backends; point
 * RPC_URL_<id> at one node that answers in order (docs/chains-and-transactions.md).
 *
 * `block.number` in an eth_call at `latest` is the head's number on geth, coreth and Hardhat's
 * EDR; a node running calls in the next block's context (head + 1) would make two equal numbers
 * prove nothing. So until one batch shows it (`calibrate`: an `eth_blockNumber` opens the batch too
 * and the probe said the same; a next-block context says more), the two `eth_blockNumber`s are the
 * proof. A chain once shown saves that call on every later check. Pinning every batch to the last
 * head seen (the first round did) paid a second round trip after each new block: most answers.
 *
 * The views (`reads`, token balances, allowances) travel in ONE eth_call when there are two or
 * more: viem's multicall, deployless (Multicall3's code sent with the call, so no chain needs it
 * deployed), which also reads them all in one EVM execution. Only the pending nonce (for the
 * intent) and the gas price are not state reads at a block. A spend with a spender adds its
 * `approve` dry-run from the user (it cannot ride in the multicall, whose calls come from the
 * multicall's address): a fresh wallet's approval answer then needs no batch of its own.
 */
export async function gather(
  batch: RpcBatch,
  from: Address,
  block: bigint | undefined,
  candidates: readonly BatchCandidate[],
  reads: readonly ChainRead[],
  calibrate: boolean,
): Promise<Gathered & { nonce: Settled<number>; probeReportsHead: boolean }> {
  const tag = block === undefined ? 'latest' : numberToHex(block);
  const spends = candidates.flatMap((c) => (c.spend ? [c.spend] : []));
  const tokens = unique(spends, (s) => s.token.address.toLowerCase());
  const spenders = unique(
    spends.filter((s) => s.spender),
    allowanceKey,
  );
  const approvals = unique(
    spends.filter((s) => s.spender),
    approvalKey,
  ).map((spend) => ({ spend, tx: approveCall(spend, approvalAmount(spend)) }));
  const sendsCoin = candidates.some((c) => (c.tx.value ?? 0n) > 0n);
  const account = { address: from, type: 'json-rpc' } as const;
  const views = viewsCall(
    [
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
    ],
    tag,
    reads.length + tokens.length + spenders.length > 1 ? await multicall3Code() : '0x',
  );
  const calls: RpcCall[] = [];
  const add = (call: RpcCall): number => calls.push(call) - 1;
  // The order of the batch: the opening head first, the closing last.
  const at = {
    opening: block === undefined && calibrate ? add({ method: 'eth_blockNumber' }) : -1,
    probe: add(headProbe(from, tag)),
    gasPrice: sendsCoin ? add({ method: 'eth_gasPrice' }) : -1,
    views: views.call ? add(views.call) : -1,
    calls: candidates.map(({ tx }) =>
      add({
        method: 'eth_call',
        params: [
          formatTransactionRequest({ account, to: tx.to, data: tx.data, value: tx.value }),
          tag,
        ],
      }),
    ),
    approvals: approvals.map(({ tx }) =>
      add({
        method: 'eth_call',
        params: [formatTransactionRequest({ account, to: tx.to, data: tx.data }), tag],
      }),
    ),
    // For the intent (src/outcomes): a later transaction at this nonce replaces the answer.
    nonce: add({ method: 'eth_getTransactionCount', params: [from, 'pending'] }),
    closing: block === undefined ? add({ method: 'eth_blockNumber' }) : -1,
  };
  const answers = await batch.send(calls);
  const quantity = (i: number): Settled<bigint> =>
    map(answers[i], (hex) => hexToBigInt(hex as Hex));
  const probe = map(answers[at.probe], (data) => readHeadProbe(data as Hex));
  const known = <T>(result: Settled<T>): T => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  };
  const closing = at.closing < 0 ? block! : known(quantity(at.closing));
  const opening = at.opening < 0 ? undefined : known(quantity(at.opening));
  const probed = block === undefined ? known(probe).block : block;
  const viewed = views.read(answers[at.views]);
  const tokenBalances = viewed.slice(reads.length, reads.length + tokens.length);
  const allowances = viewed.slice(reads.length + tokens.length);
  return {
    block: closing,
    consistent: (opening ?? probed) === closing,
    probeReportsHead: opening === probed,
    balance: map(probe, ({ balance }) => balance),
    codeSize: map(probe, ({ codeSize }) => codeSize),
    gasPrice: at.gasPrice < 0 ? { status: 'fulfilled', value: 0n } : quantity(at.gasPrice),
    reads: viewed.slice(0, reads.length),
    calls: candidates.map(({ tx }, i) => dryRun(answers[at.calls[i]], account, tx, block)),
    tokenBalances: new Map(
      tokens.map((s, i) => [s.token.address.toLowerCase(), tokenBalances[i] as Settled<bigint>]),
    ),
    allowances: new Map(
      spenders.map((s, i) => [allowanceKey(s), allowances[i] as Settled<bigint>]),
    ),
    approvals: new Map(
      approvals.map(({ spend, tx }, i) => [
        approvalKey(spend),
        dryRun(answers[at.approvals[i]], account, tx, block),
      ]),
    ),
    nonce: map(answers[at.nonce], (hex) => hexToNumber(hex as Hex)),
  };
}

/** A candidate's eth_call as viem's `call` gives it: `{ data }` (none for `0x`) or its error. */
function dryRun(
  answer: Settled<unknown>,
  account: { address: Address; type: 'json-rpc' },
  tx: Pick<UnsignedTransaction, 'to' | 'data' | 'value'>,
  blockNumber: bigint | undefined,
): Settled<{ data?: Hex }> {
  if (answer.status === 'rejected') {
    const args = { account, to: tx.to, data: tx.data, value: tx.value, blockNumber };
    return { status: 'rejected', reason: getCallError(answer.reason as never, args) };
  }
  return {
    status: 'fulfilled',
    value: { data: answer.value === '0x' ? undefined : (answer.value as Hex) },
  };
}

const map = <T, U>(result: Settled<T>, f: (value: T) => U): Settled<U> => {
  if (result.status === 'rejected') return result;
  try {
    return { status: 'fulfilled', value: f(result.value) };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
};

export const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  Promise.allSettled([promise]).then(([result]) => result);

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}
