import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  decodeAbiParameters,
  decodeFunctionData,
  deploylessCallViaBytecodeBytecode,
  encodeAbiParameters,
  encodeFunctionResult,
  type Hex,
  multicall3Abi,
  numberToHex,
} from 'viem';
import type { CountedHandler } from './counting.server';
import { headProbeAnswer } from '../../src/evm/transaction/head-probe';

/** One JSON-RPC call as the fake node received it, for a test to assert what a client asked. */
export interface RpcCall {
  method: string;
  params: unknown[];
}

/** What a method answers: its `result`, or a JSON-RPC error when it returns `rpcError(...)`. */
export type RpcMethod = (params: unknown[]) => unknown;

const ERROR = Symbol('rpc error');
interface RpcErrorAnswer {
  [ERROR]: { code: number; message: string };
}

/** A JSON-RPC error answer, e.g. a revert: `rpcError(3, 'execution reverted')`. */
export const rpcError = (code: number, message: string): RpcErrorAnswer => ({
  [ERROR]: { code, message },
});

/** Seconds of block 0 of the fake chain; block n comes 2 s later per block. */
export const GENESIS_TIME = 1_700_000_000;
/**
 * The fake chain's head block number: `eth_blockNumber` and the `latest` tag answer it, so a test
 * knows which blocks exist.
 */
export const HEAD = 1_000;

/** A block as nodes send it (hex quantities), at the fake chain's regular 2 s spacing. */
export function block(number: number): Record<string, unknown> {
  return {
    number: numberToHex(number),
    timestamp: numberToHex(GENESIS_TIME + 2 * number),
    hash: `0x${number.toString(16).padStart(64, '0')}`,
    parentHash: `0x${Math.max(number - 1, 0)
      .toString(16)
      .padStart(64, '0')}`,
    baseFeePerGas: '0x3b9aca00',
    gasLimit: '0x1c9c380',
    gasUsed: '0x0',
    miner: '0x0000000000000000000000000000000000000000',
    transactions: [],
  };
}

/**
 * Whether a JSON-RPC call is a check's head probe (src/evm/transaction/head-probe.ts): an
 * eth_call without `to` whose code starts `PUSH20 <account> DUP1 BALANCE` (of `account` when given).
 */
export function isHeadProbe(
  call: { method?: string; params?: readonly unknown[] },
  account?: string,
): boolean {
  const request = call.params?.[0] as { to?: string; data?: string } | undefined;
  const reads = account === undefined ? '[0-9a-f]{40}' : account.slice(2);
  return (
    call.method === 'eth_call' &&
    !request?.to &&
    new RegExp(`^0x73${reads}8031`, 'i').test(request?.data ?? '')
  );
}

/** Reserves (uint112, uint112, uint32) as a V2 pair's getReserves answers them. */
export const reservesAnswer = (reserve0: bigint, reserve1: bigint): Hex =>
  encodeAbiParameters(
    [{ type: 'uint112' }, { type: 'uint112' }, { type: 'uint32' }],
    [reserve0, reserve1, 0],
  );

/**
 * Every contract answers as a token with 5 units of 6 decimals, and as a pair with deep reserves;
 * the head probe with HEAD and 1 coin; viem's deployless multicall (no `to`, Multicall3's code and its aggregate3 call as constructor
 * arguments) answers each of its calls so.
 */
function tokenAnswer(call: unknown): Hex {
  const data = String((call as { data?: string; input?: string }).data ?? '');
  // The check's head probe (src/evm/transaction/head-probe.ts): the head and a balance of 1 coin.
  if (isHeadProbe({ method: 'eth_call', params: [call] })) {
    return headProbeAnswer(BigInt(HEAD), 10n ** 18n);
  }
  if (!(call as { to?: string }).to && data.startsWith(deploylessCallViaBytecodeBytecode)) {
    const [, inner] = decodeAbiParameters(
      [{ type: 'bytes' }, { type: 'bytes' }],
      `0x${data.slice(deploylessCallViaBytecodeBytecode.length)}`,
    );
    const { args } = decodeFunctionData({ abi: multicall3Abi, data: inner });
    const calls = args[0] as readonly { callData: Hex }[];
    return encodeFunctionResult({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      result: calls.map((c) => ({ success: true, returnData: tokenAnswer({ data: c.callData }) })),
    });
  }
  const selector = String((call as { data?: string; input?: string }).data ?? '').slice(0, 10);
  switch (selector) {
    case '0x95d89b41': // symbol()
      return encodeAbiParameters([{ type: 'string' }], ['TKN']);
    case '0x313ce567': // decimals()
      return encodeAbiParameters([{ type: 'uint8' }], [6]);
    case '0x0902f1ac': // getReserves()
      return reservesAnswer(10n ** 24n, 10n ** 24n);
    case '0x38ed1739': // swapExactTokensForTokens(...): amounts, in then out
    case '0x7ff36ab5': // swapExactETHForTokens(...)
    case '0x18cbafe5': // swapExactTokensForETH(...)
      return encodeAbiParameters([{ type: 'uint256[]' }], [[10n ** 6n, 10n ** 6n]]);
    default: // balanceOf(address)
      return encodeAbiParameters([{ type: 'uint256' }], [5n * 10n ** 6n]);
  }
}

const blockParam = (tag: unknown): number =>
  tag === 'latest' || tag === 'pending' || typeof tag !== 'string' ? HEAD : Number(BigInt(tag));

/**
 * A healthy chain of HEAD + 1 blocks (chain id 43113): every method the actions use, with
 * plausible answers. Tests replace one method with a malformed answer at a time.
 */
export function healthyChain(): Record<string, RpcMethod> {
  return {
    eth_chainId: () => numberToHex(43113),
    eth_blockNumber: () => numberToHex(HEAD),
    eth_getBlockByNumber: ([tag]) => block(blockParam(tag)),
    // No Multicall3: token reads go one by one.
    eth_getCode: () => '0x',
    eth_getBalance: () => numberToHex(10n ** 18n),
    eth_call: ([call]) => tokenAnswer(call),
    eth_getTransactionCount: () => '0x7',
    eth_estimateGas: () => numberToHex(60_000),
    eth_maxPriorityFeePerGas: () => numberToHex(1_000_000_000),
    eth_gasPrice: () => numberToHex(2_000_000_000),
  };
}

/**
 * A JSON-RPC node for a CountingServer: answers single and batched calls from `methods`
 * (unknown methods get JSON-RPC error -32601) and records every call in `calls`.
 */
export function jsonRpcNode(
  methods: Record<string, RpcMethod>,
  calls: RpcCall[] = [],
): CountedHandler {
  return (_req, res, body) => {
    const parsed = JSON.parse(body) as
      | { id: number; method: string; params?: unknown[] }
      | { id: number; method: string; params?: unknown[] }[];
    const answer = (call: { id: number; method: string; params?: unknown[] }): unknown => {
      const params = call.params ?? [];
      calls.push({ method: call.method, params });
      const method = methods[call.method];
      if (!method) {
        return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'no such method' } };
      }
      const result = method(params);
      return typeof result === 'object' && result !== null && ERROR in result
        ? { jsonrpc: '2.0', id: call.id, error: (result as RpcErrorAnswer)[ERROR] }
        : { jsonrpc: '2.0', id: call.id, result };
    };
    const reply = Array.isArray(parsed) ? parsed.map(answer) : answer(parsed);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  };
}

/** Addresses of the fake chain's configuration (no contract lives there: the node makes it up). */
export const FAKE = {
  user: '0x52908400098527886E0F7030069857D2E4169EE7',
  recipient: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  usdc: '0x5425890298aed601595a70AB815c96711a31Bc65',
  wavax: '0xd00ae08403B9bbb9124bB305C09058E32C39A48c',
  pool: '0x1111111111111111111111111111111111111111',
  router: '0x2222222222222222222222222222222222222222',
} as const;

/**
 * A CHAIN_CONFIG_FILE with one chain, 43113 ("Fake Fuji", the chain every shipped action
 * declares), served by the node at `rpcUrl`: AVAX, two tokens and one V2 pool. Returns its path.
 */
export function fakeChainFile(rpcUrl: string): string {
  const chain = {
    name: 'Fake Fuji',
    rpcUrl,
    nativeCurrency: { symbol: 'AVAX', decimals: 18 },
    tokens: {
      USDC: { address: FAKE.usdc, decimals: 6 },
      WAVAX: { address: FAKE.wavax, decimals: 18 },
    },
    routers: { dex: FAKE.router },
    pools: [
      { name: 'dex WAVAX/USDC', address: FAKE.pool, router: 'dex', tokens: ['WAVAX', 'USDC'] },
    ],
  };
  const path = join(mkdtempSync(join(tmpdir(), 'fake-chain-')), 'chains.json');
  writeFileSync(path, JSON.stringify({ chains: { 43113: chain } }));
  return path;
}
