import { isURL } from '../../config/validator-subset';
import { type Address, getAddress, isAddress } from 'viem';
import { knownChain, viemDefinition } from './known-chains';
import type { ChainInfo, PoolInfo, TokenInfo } from './chains.config';
import { type Env, httpUrlRule } from '../../config/env';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;

/** Collects every problem of a chain file (CHAIN_CONFIG_FILE), each named by its JSON path. */
export class ChainFileChecker {
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
    const name =
      value.name === undefined && known ? known.displayName : this.text(`${at}.name`, value.name);
    // Never echoed: an RPC URL may carry an API key.
    const fromEnv = env[`RPC_URL_${id}`];
    const rpcUrl = fromEnv || value.rpcUrl || viemDefinition(known)?.rpcUrls.default.http[0];
    if (typeof rpcUrl !== 'string' || !isURL(rpcUrl, httpUrlRule)) {
      this.fail(
        fromEnv ? `RPC_URL_${id}` : `${at}.rpcUrl`,
        fromEnv
          ? 'not an http(s) URL'
          : `no http(s) RPC URL: set RPC_URL_${id} or rpcUrl in the file`,
      );
    }
    const fileNative = isObject(value.nativeCurrency) ? value.nativeCurrency : {};
    const complete = fileNative.symbol !== undefined && fileNative.decimals !== undefined;
    const nativeRaw = {
      ...(complete ? {} : viemDefinition(known)?.nativeCurrency),
      ...fileNative,
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
    const nftCollection =
      value.nftCollection === undefined
        ? undefined
        : this.address(`${at}.nftCollection`, value.nftCollection);
    if (!name || !native || typeof rpcUrl !== 'string') return undefined;
    const valid = pools.filter((pool): pool is PoolInfo => pool !== undefined);
    const validRouters = new Map(
      [...routers].filter((entry): entry is [string, Address] => entry[1] !== undefined),
    );
    const names = known?.names ?? [];
    return {
      chainId,
      name,
      names,
      rpcUrl,
      native,
      tokens,
      routers: validRouters,
      pools: valid,
      ...(nftCollection && { nftCollection }),
    };
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
