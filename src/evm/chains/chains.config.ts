import { IsIn, IsOptional, IsString, MinLength } from '../../config/validator-subset';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Address } from 'viem';
import { ChainFileChecker } from './chain-file.check';
import defaults from './chains.default.json';
import { type Env, readEnv } from '../../config/env';
import { loadExternalConfig } from '../../config/external.config';
import { loadRpcConfig } from './rpc.config';
import { registerConfigCheck } from '../../config/configuration.check';

export const CHAINS_CONFIG = Symbol('CHAINS_CONFIG');
export const TRANSACTION_CONFIG = Symbol('TRANSACTION_CONFIG');

class ChainsEnv {
  /** A JSON file shaped like chains.default.json; relative paths start at the working directory. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  CHAIN_CONFIG_FILE?: string;
}

class TransactionEnv {
  /** `rlp`: unsigned EIP-1559 hex (`0x02…`); `json`: wagmi's `serialize` form of the request. */
  @IsOptional()
  @IsIn(['rlp', 'json'])
  TX_SERIALIZATION = 'rlp';

  /** `none`: the wallet fills nonce, gas and fees; `estimate`: the backend asks the chain's RPC. */
  @IsOptional()
  @IsIn(['none', 'estimate'])
  TX_FILL = 'none';

  /**
   * `on`: every transaction is checked against the chain as its signer would send it before it is
   * answered; `off` answers unchecked (a debugging switch, never a production setting).
   */
  @IsOptional()
  @IsIn(['on', 'off'])
  TX_SIMULATE = 'on';
}

/**
 * A token a chain serves, the native coin included, as the chain file declares it: what
 * `ChainRegistry.token` answers for a symbol a request sent, with the decimals `toBaseUnits` needs.
 */
export interface TokenInfo {
  /** The symbol requests name the token by (`USDC`), as the chain file keys it. */
  symbol: string;
  /**
   * Places between base units and one token: `toBaseUnits` and `fromBaseUnits` need it, never a
   * guess of 18.
   */
  decimals: number;
  /** Absent for the chain's native coin. */
  address?: Address;
  /**
   * The chain's own coin: sent as the transaction's `value`, not through an ERC-20 call; check it
   * before reading `address`.
   */
  native: boolean;
  /** Identifier of the token at a simple-price API (CoinGecko's ids), when one is known. */
  priceId?: string;
}

/** A constant-product (Uniswap V2-style) pair and the router whose factory created it. */
export interface PoolInfo {
  name: string;
  address: Address;
  router: Address;
  routerName: string;
  tokens: readonly [string, string];
  /** Swap fee in basis points (30 = 0.3 %, Uniswap V2's). */
  feeBps: number;
}

/**
 * A chain the service serves: its RPC node, native coin, tokens, routers and pools from the chain
 * file over viem's definitions. ChainRegistry hands it to actions; never build one by hand outside
 * tests.
 */
export interface ChainInfo {
  /** The EVM chain id, the key requests and the chain file use. */
  chainId: number;
  /** Display name: the file's `name`, else the platform's, else viem's. */
  name: string;
  /** Names a request may use for the chain (the platform's display and legacy names). */
  names: readonly string[];
  /**
   * The node's URL (`RPC_URL_<id>` over the file's); it may carry keys, so it is never logged or
   * shown.
   */
  rpcUrl: string;
  /** The chain's own coin (`native: true`), also listed in `tokens` under its symbol. */
  native: TokenInfo;
  /** Every token by symbol, the native coin included. */
  tokens: ReadonlyMap<string, TokenInfo>;
  /** Swap routers by name, for actions that build router calls. */
  routers: ReadonlyMap<string, Address>;
  /** The constant-product pools the file lists, for quoting swaps. */
  pools: readonly PoolInfo[];
  /** The ERC-721 collection the mint-nft action mints on (`safeMint(address to, string uri)`). */
  nftCollection?: Address;
}

export interface ChainsConfig {
  chains: ReadonlyMap<number, ChainInfo>;
  /** Chains the file lists with `"development": true`, left out outside development and test. */
  developmentOnly: readonly number[];
  /** Bound on each RPC request (EXTERNAL_TIMEOUT_MS). */
  timeoutMs: number;
  /** Most calls one request to a node carries (RPC_MAX_BATCH_CALLS, rpc.config.ts). */
  maxBatchCalls: number;
}

export interface TransactionConfig {
  serialization: 'rlp' | 'json';
  fill: 'none' | 'estimate';
  /** TX_SIMULATE=on: a transaction that would revert is refused, not answered. */
  simulate: boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readChainFile(file: string | undefined): unknown {
  if (file === undefined) return defaults;
  try {
    return JSON.parse(readFileSync(resolve(file), 'utf8')) as unknown;
  } catch (error) {
    const why = error instanceof SyntaxError ? 'not valid JSON' : (error as Error).message;
    throw new Error(`Invalid chain configuration: CHAIN_CONFIG_FILE=${file}: ${why}`);
  }
}

/**
 * Reads tokens, pools and routers per chain; a bad file stops the boot with every problem named.
 * Chains marked `"development": true` (the shipped local chain) are served only when NODE_ENV is
 * development or test.
 */
export function loadChainsConfig(env: Env): ChainsConfig {
  const file = readEnv(ChainsEnv, env, 'chain configuration').CHAIN_CONFIG_FILE;
  const raw = readChainFile(file);
  const checker = new ChainFileChecker();
  const chains = new Map<number, ChainInfo>();
  const developmentOnly: number[] = [];
  const development = env.NODE_ENV === 'development' || env.NODE_ENV === 'test';
  const entries = isObject(raw) && isObject(raw.chains) ? Object.entries(raw.chains) : [];
  if (entries.length === 0) checker.fail('chains', 'expected an object with at least one chain');
  for (const [id, value] of entries) {
    const chain = checker.chain(id, value, env);
    const onlyForDevelopment = checker.developmentOnly(id, value);
    if (!chain) continue;
    if (onlyForDevelopment && !development) developmentOnly.push(chain.chainId);
    else chains.set(chain.chainId, chain);
  }
  if (checker.problems.length > 0) {
    const where = file === undefined ? 'the default chain file' : `CHAIN_CONFIG_FILE=${file}`;
    throw new Error(
      `Invalid chain configuration (${where}):\n  - ${checker.problems.join('\n  - ')}`,
    );
  }
  const { timeoutMs } = loadExternalConfig(env);
  return { chains, developmentOnly, timeoutMs, maxBatchCalls: loadRpcConfig(env).maxBatchCalls };
}

/**
 * Reads TX_SERIALIZATION, TX_FILL and TX_SIMULATE: how transaction answers are encoded, filled and
 * checked before they are answered. A bad value stops the boot with a ConfigError naming it.
 */
export function loadTransactionConfig(env: Env): TransactionConfig {
  const vars = readEnv(TransactionEnv, env, 'transaction configuration');
  return {
    serialization: vars.TX_SERIALIZATION as TransactionConfig['serialization'],
    fill: vars.TX_FILL as TransactionConfig['fill'],
    simulate: vars.TX_SIMULATE === 'on',
  };
}

/**
 * Select options for token parameters: declarations are static, so they list the symbols of the
 * shipped default file; the service checks each request against the chain actually configured
 * (ChainRegistry.token answers 400 `UNKNOWN_TOKEN` for a symbol the chain lacks).
 *
 * @param chainIds - the chains the action declares (`[CHAINS.source]`); symbols are listed once.
 * @param options - `native: true` lists each chain's native coin too, for an action that can
 *   send it as the transaction's value; `false` for an ERC-20-only parameter.
 */
export function defaultTokenOptions(
  chainIds: readonly number[],
  { native }: { native: boolean },
): { label: string; value: string }[] {
  const symbols = new Set<string>();
  for (const id of chainIds) {
    const chain = (defaults.chains as Record<string, Json | undefined>)[String(id)];
    if (!chain) continue;
    if (native) symbols.add(String((chain.nativeCurrency as Json).symbol));
    for (const symbol of Object.keys(chain.tokens as Json)) symbols.add(symbol);
  }
  return [...symbols].map((symbol) => ({ label: symbol, value: symbol }));
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadTransactionConfig);
