import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Address } from 'viem';
import { type ChainInfo, CHAINS_CONFIG, type ChainsConfig } from '../../config/chains.config';
import { ActionException } from '../../core';
import { ChainRpc } from '../../core/transaction';
import { type ChainReader, ViemChainReader } from './chain-reader';

export interface PortfolioToken {
  address: Address;
  /** From the chain file: used where the token does not answer `symbol()`/`decimals()`. */
  symbol: string;
  decimals: number;
  priceId: string;
}

/** What the portfolio needs to know about a chain, drawn from the shared chain configuration. */
export interface PortfolioChain {
  chainId: number;
  name: string;
  native: { symbol: string; decimals: number; priceId: string };
  tokens: PortfolioToken[];
}

export interface ChainAccess {
  chain: PortfolioChain;
  reader: ChainReader;
}

/** The price API's id: the chain file's `priceId`, else the symbol in lower case. */
const priceIdOf = (token: { symbol: string; priceId?: string }): string =>
  token.priceId ?? token.symbol.toLowerCase();

function toPortfolioChain(info: ChainInfo): PortfolioChain {
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

/**
 * The chains the portfolio can read: those of the shared chain file (CHAIN_CONFIG_FILE, RPC URLs
 * from RPC_URL_<chainId>), through the same viem clients as transaction actions.
 */
@Injectable()
export class PortfolioChains {
  private readonly access = new Map<number, ChainAccess>();

  constructor(
    @Inject(CHAINS_CONFIG) private readonly config: ChainsConfig,
    private readonly rpc: ChainRpc,
  ) {}

  /** A chain nobody configured is the caller's mistake: a 400 naming it. */
  get(chainId: number): ChainAccess {
    let access = this.access.get(chainId);
    if (!access) {
      const info = this.config.chains.get(chainId);
      if (!info) {
        throw new ActionException(
          HttpStatus.BAD_REQUEST,
          `No RPC is configured for chain ${chainId}`,
          {
            message: `Portfolio analysis is not available on chain ${chainId}`,
            data: { chainId },
          },
        );
      }
      access = {
        chain: toPortfolioChain(info),
        reader: new ViemChainReader(this.rpc.client(info)),
      };
      this.access.set(chainId, access);
    }
    return access;
  }

  /** The 500 every action shows for a failing node: it names the chain, never the node's URL. */
  failure(chainId: number, error: unknown): ActionException {
    const info = this.config.chains.get(chainId);
    if (!info) throw new Error(`Chain ${chainId} is not configured`);
    return this.rpc.failure(info, 'Portfolio read', error);
  }
}
