import { IsIn, IsOptional, IsString, isURL, MinLength } from 'class-validator';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Address, getAddress, isAddress } from 'viem';
import { knownChain } from '../chains/known-chains';
import defaults from './chains.default.json';
import { type Env, httpUrlRule, readEnv } from './env';
import { loadExternalConfig } from './external.config';

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
}

export interface TokenInfo {
  symbol: string;
  decimals: number;
  /** Absent for the chain's native coin. */
  address?: Address;
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

export interface ChainInfo {
  chainId: number;
  /** Display name: the file's `name`, else the platform's, else viem's. */
  name: string;
  /** Names a request may use for the chain (the platform's display and legacy names). */
  names: readonly string[];
  rpcUrl: string;
  native: TokenInfo;
  /** Every token by symbol, the native coin included. */
  tokens: ReadonlyMap<string, TokenInfo>;
  routers: ReadonlyMap<string, Address>;
  pools: readonly PoolInfo[];
}

export interface ChainsConfig {
  chains: ReadonlyMap<number, ChainInfo>;
  /** Chains the file lists with `"development": true`, left out outside development and test. */
  developmentOnly: readonly number[];
  /** Bound on each RPC request (EXTERNAL_TIMEOUT_MS). */
  timeoutMs: number;
}

export interface TransactionConfig {
  serialization: 'rlp' | 'json';
  fill: 'none' | 'estimate';
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;

/** Collects every problem of a chain file, each named by its JSON path. */
class Checker {
  readonly problems: string[] = [];

  fail(at: string, problem: string): undefined {
    this.problems.push(`${at}: ${problem}`);
    return undefined;
  }

  text(at: string, value: unknown): string | undefined {
    return typeof value === 'string' && value.trim() !== ''
      ? value
      : this.fail(at, 'expected non-empty text');
  }

  address(at: string, value: unknown): Address | undefined {
    return typeof value === 'string' && isAddress(value, { strict: false })
      ? getAddress(value)
      : this.fail(at, 'expected an address (0x followed by 40 hex digits)');
  }

  integer(at: string, value: unknown, min: number, max: number): number | undefined {
    return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? (value as number)
      : this.fail(at, `expected an integer from ${min} to ${max}`);
  }

  priceId(at: string, value: unknown): string | undefined {
    return value === undefined ? undefined : this.text(at, value);
  }

  token(at: string, symbol: string, value: unknown, native: boolean): TokenInfo | undefined {
    if (!isObject(value)) return this.fail(at, 'expected an object');
    if (!SYMBOL.test(symbol)) this.fail(at, 'a symbol is 1 to 20 letters, digits, ".", "_", "-"');
    const decimals = this.integer(`${at}.decimals`, value.decimals, 0, 36);
    const address = native ? undefined : this.address(`${at}.address`, value.address);
    const priceId = this.priceId(`${at}.priceId`, value.priceId);
    if (decimals === undefined || (!native && !address)) return undefined;
    return { symbol, decimals, address, native, ...(priceId && { priceId }) };
  }

  chain(id: string, value: unknown, env: Env): ChainInfo | undefined {
    const at = `chains.${id}`;
    const chainId = /^[1-9]\d{0,15}$/.test(id) ? Number(id) : undefined;
    if (chainId === undefined) return this.fail(at, 'a chain is keyed by its integer chain id');
    if (!isObject(value)) return this.fail(at, 'expected an object');
    // What viem and the platform know of the chain fills what the file leaves out.
    const known = knownChain(chainId);
    const definition = known?.definition;
    const name =
      value.name === undefined && known ? known.displayName : this.text(`${at}.name`, value.name);
    // Never echoed: an RPC URL may carry an API key.
    const fromEnv = env[`RPC_URL_${id}`];
    const rpcUrl = fromEnv || value.rpcUrl || definition?.rpcUrls.default.http[0];
    if (typeof rpcUrl !== 'string' || !isURL(rpcUrl, httpUrlRule)) {
      this.fail(
        fromEnv ? `RPC_URL_${id}` : `${at}.rpcUrl`,
        fromEnv
          ? 'not an http(s) URL'
          : `no http(s) RPC URL: set RPC_URL_${id} or rpcUrl in the file`,
      );
    }
    const nativeRaw = {
      ...definition?.nativeCurrency,
      ...(isObject(value.nativeCurrency) ? value.nativeCurrency : {}),
    };
    const nativeSymbol = this.text(`${at}.nativeCurrency.symbol`, nativeRaw.symbol) ?? '';
    const native = this.token(`${at}.nativeCurrency`, nativeSymbol, nativeRaw, true);
    const tokens = new Map<string, TokenInfo>(native ? [[native.symbol, native]] : []);
    for (const [symbol, raw] of Object.entries(isObject(value.tokens) ? value.tokens : {})) {
      const token = this.token(`${at}.tokens.${symbol}`, symbol, raw, false);
      if (tokens.has(symbol)) this.fail(`${at}.tokens.${symbol}`, 'same symbol as the native coin');
      else if (token) tokens.set(symbol, token);
    }
    const routers = new Map<string, Address | undefined>();
    for (const [routerName, address] of Object.entries(
      isObject(value.routers) ? value.routers : {},
    ))
      routers.set(routerName, this.address(`${at}.routers.${routerName}`, address));
    const pools = (Array.isArray(value.pools) ? value.pools : []).map((pool, i) =>
      this.pool(`${at}.pools.${i}`, pool, tokens, routers),
    );
    if (!name || !native || typeof rpcUrl !== 'string') return undefined;
    const valid = pools.filter((pool): pool is PoolInfo => pool !== undefined);
    const validRouters = new Map(
      [...routers].filter((entry): entry is [string, Address] => entry[1] !== undefined),
    );
    const names = known?.names ?? [];
    return { chainId, name, names, rpcUrl, native, tokens, routers: validRouters, pools: valid };
  }

  /** `"development": true` marks a chain that only development and test configurations serve. */
  developmentOnly(id: string, value: unknown): boolean {
    const flag = isObject(value) ? value.development : undefined;
    if (flag === undefined || typeof flag === 'boolean') return flag === true;
    this.fail(`chains.${id}.development`, 'expected true or false');
    return false;
  }

  pool(
    at: string,
    value: unknown,
    tokens: Map<string, TokenInfo>,
    routers: Map<string, Address | undefined>,
  ): PoolInfo | undefined {
    if (!isObject(value)) return this.fail(at, 'expected an object');
    const name = this.text(`${at}.name`, value.name);
    const address = this.address(`${at}.address`, value.address);
    const routerName = this.text(`${at}.router`, value.router);
    if (routerName && !routers.has(routerName)) this.fail(`${at}.router`, 'not a key of routers');
    const router = routerName && routers.get(routerName);
    const feeBps =
      value.feeBps === undefined ? 30 : this.integer(`${at}.feeBps`, value.feeBps, 0, 9999);
    const pair = Array.isArray(value.tokens) ? value.tokens : [];
    const erc20 = (symbol: unknown): boolean => tokens.get(String(symbol))?.native === false;
    if (pair.length !== 2 || pair[0] === pair[1] || !pair.every(erc20)) {
      return this.fail(`${at}.tokens`, 'expected two different ERC-20 symbols of this chain');
    }
    if (!name || !address || !routerName || !router || feeBps === undefined) return undefined;
    return {
      name,
      address,
      router,
      routerName,
      tokens: [String(pair[0]), String(pair[1])],
      feeBps,
    };
  }
}

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
  const checker = new Checker();
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
  return { chains, developmentOnly, timeoutMs: loadExternalConfig(env).timeoutMs };
}

export function loadTransactionConfig(env: Env): TransactionConfig {
  const vars = readEnv(TransactionEnv, env, 'transaction configuration');
  return {
    serialization: vars.TX_SERIALIZATION as TransactionConfig['serialization'],
    fill: vars.TX_FILL as TransactionConfig['fill'],
  };
}

/**
 * Select options for token parameters: declarations are static, so they list the symbols of the
 * shipped default file; the service checks each request against the chain actually configured.
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
