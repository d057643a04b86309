import { HttpStatus, Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { PublicClient } from 'viem';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { type ChainInfo, CHAINS_CONFIG, type ChainsConfig, type TokenInfo } from './chains.config';
import { ActionException } from '../../contract/action.exception';
import type { ChainContext, RequestContext } from '../../contract/action.types';
import type { Lane } from '../../outbound/http/host-policy';
import { ChainRpc } from './chain-rpc';
import { knownChain } from './known-chains';
import { isPrivateUrl } from './private-address';

/** What declares chains: an action declaration or its published form. */
export interface ChainsDeclared {
  chains: ChainContext;
}

/** The chains a declaration names: its source, then its destination when it has one. */
export function declaredChains({ chains }: ChainsDeclared): number[] {
  return chains.destination === undefined || chains.destination === chains.source
    ? [chains.source]
    : [chains.source, chains.destination];
}

/** `43113 (Avalanche Fuji)`, or the bare id of a chain nobody named. */
export function describeChain(id: number): string {
  const name = knownChain(id)?.displayName;
  return name === undefined ? String(id) : `${id} (${name})`;
}

/**
 * The one place chains are resolved: the chain file (CHAIN_CONFIG_FILE, `RPC_URL_<id>`) over
 * viem's definitions, each chain with its names, native coin, tokens, routers, pools and RPC
 * client. Every action, data or transaction mode, asks it which chain a request runs on.
 */
@Injectable()
export class ChainRegistry implements OnModuleInit {
  constructor(
    @Inject(CHAINS_CONFIG) private readonly config: ChainsConfig,
    @Inject(APP_CONFIG) private readonly app: AppConfig,
    private readonly rpc: ChainRpc,
  ) {}

  /** A production node on a loopback or private address is most likely a leftover of testing. */
  onModuleInit(): void {
    if (this.app.nodeEnv !== 'production') return;
    const local = this.all().filter((chain) => isPrivateUrl(chain.rpcUrl));
    for (const chain of local) {
      new Logger('ChainRegistry').warn(
        `Chain ${describeChain(chain.chainId)} has its RPC node on a loopback or private address (set RPC_URL_${chain.chainId})`,
      );
    }
  }

  /**
   * The configured chain with this id, if the service serves it; ask `forRequest` instead to refuse
   * a chain the action does not declare.
   */
  get(chainId: number): ChainInfo | undefined {
    return this.config.chains.get(chainId);
  }

  /**
   * Every chain the service serves: the chain file's (or the shipped default's), without those left
   * out for development only.
   */
  all(): ChainInfo[] {
    return [...this.config.chains.values()];
  }

  /** Why each declared chain the configuration lacks is missing: empty when all are served. */
  missing(declared: ChainsDeclared): string[] {
    return declaredChains(declared)
      .filter((id) => !this.config.chains.has(id))
      .map((id) =>
        this.config.developmentOnly.includes(id)
          ? `chain ${describeChain(id)} is listed for development only (NODE_ENV=development or test)`
          : `chain ${describeChain(id)} is not in the chain configuration`,
      );
  }

  /**
   * Refuses a request naming a chain its action does not declare (source or destination): a
   * 400 `UNSUPPORTED_CHAIN`, the same for every action and mode.
   */
  assertServes(declared: ChainsDeclared, context: RequestContext): void {
    const served = declaredChains(declared).filter((id) => this.config.chains.has(id));
    const named = [
      ['sourceChain', context.sourceChain],
      ['destinationChain', context.destinationChain],
    ] as const;
    for (const [field, chainId] of named) {
      if (chainId === undefined || served.includes(chainId)) continue;
      const names = served.map((id) => this.get(id)?.name ?? String(id)).join(' or ');
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `Chain ${chainId} is not supported by this action (${field}: ${served.join(' or ')})`,
        {
          message: `This action runs on ${names}, not on chain ${describeChain(chainId)}`,
          data: { code: 'UNSUPPORTED_CHAIN', invalidParams: [field], supportedChains: served },
          code: 'UNSUPPORTED_CHAIN',
        },
      );
    }
  }

  /** The chain a request runs on: the one it names, else the declared source chain. */
  forRequest(declared: ChainsDeclared, context: RequestContext): ChainInfo {
    this.assertServes(declared, context);
    const chainId = context.sourceChain ?? declared.chains.source;
    const chain = this.get(chainId);
    // The boot check guarantees it: a declared chain is configured.
    if (!chain) throw new Error(`Chain ${chainId} is declared but not configured`);
    return chain;
  }

  /** The chain's token with this symbol, the native coin included; another is a 400 naming it. */
  token(chain: ChainInfo, symbol: string, param: string): TokenInfo {
    const token = chain.tokens.get(symbol);
    if (!token) {
      throw new ActionException(
        HttpStatus.BAD_REQUEST,
        `Unknown token ${symbol} for ${param} on ${chain.name} (chain ${chain.chainId})`,
        { data: { invalidParams: [param] }, code: 'UNKNOWN_TOKEN' },
      );
    }
    return token;
  }

  /**
   * The safe way for an action to read the chain: `run` gets the chain's viem client, and any
   * failure becomes the error every action shows, never viem's text (which quotes the node's URL,
   * keys included): a failing node is a 500 `RPC_ERROR` naming the chain (`data.code` in data
   * mode), a refused call the bounds' 503, a revert a 400 `TRANSACTION_WOULD_FAIL`.
   * `what` names the read in the log line (`'gas price'`); a `lane` runs it on a bulkhead of its
   * own (ChainRpc.laneClient).
   */
  read<T>(
    chain: ChainInfo,
    what: string,
    run: (client: PublicClient) => Promise<T>,
    lane?: Lane,
  ): Promise<T> {
    return this.rpc.read(chain, what, run, lane);
  }

  /**
   * The chain's raw viem client, within the node host's bounds (see ChainRpc). Its errors carry
   * the node's URL: read through `read`, or turn failures into `ChainRpc.failure` yourself.
   */
  client(chain: ChainInfo): PublicClient {
    return this.rpc.client(chain);
  }
}
