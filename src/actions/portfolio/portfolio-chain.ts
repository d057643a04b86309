import type { Address } from 'viem';
import type { ChainInfo } from '../../evm';

export interface PortfolioToken {
  address: Address;
  /** From the chain file: used where the token does not answer `symbol()`/`decimals()`. */
  symbol: string;
  decimals: number;
  priceId: string;
}

/** What the portfolio needs to know about a chain, drawn from the chain registry. */
export interface PortfolioChain {
  chainId: number;
  name: string;
  native: { symbol: string; decimals: number; priceId: string };
  tokens: PortfolioToken[];
}

/** The price API's id: the chain file's `priceId`, else the symbol in lower case. */
const priceIdOf = (token: { symbol: string; priceId?: string }): string =>
  token.priceId ?? token.symbol.toLowerCase();

export function toPortfolioChain(info: ChainInfo): PortfolioChain {
  const { native } = info;
  return {
    chainId: info.chainId,
    name: info.name,
    native: { symbol: native.symbol, decimals: native.decimals, priceId: priceIdOf(native) },
    tokens: [...info.tokens.values()].flatMap((token) =>
      token.native || !token.address
        ? []
        : [
            {
              address: token.address,
              symbol: token.symbol,
              decimals: token.decimals,
              priceId: priceIdOf(token),
            },
          ],
    ),
  };
}
