import { Injectable, Logger } from '@nestjs/common';
import { ChainRegistry } from '../evm';
import { ChainRpc, rpcFailureKind } from '../evm/chains/chain-rpc';

/**
 * The block a chain's node calls final (`eth_getBlockByNumber("finalized")`): an intent settles
 * only at or below it, and TX_CONFIRMATIONS deep. Avalanche's nodes name it (the C-Chain's
 * `finalized` and `safe` are the accepted head, settled by consensus); post-merge Ethereum's lag
 * two epochs. A node that answers the tag with an error has none: TX_CONFIRMATIONS alone decides
 * there, and the node is not asked again. A node that fails (unreachable, timing out) fails the
 * pass, which is tried again: nothing settles on a guess.
 */
@Injectable()
export class Finality {
  private readonly logger = new Logger('Intents');
  private readonly without = new Set<number>();

  constructor(
    private readonly chains: ChainRegistry,
    private readonly rpc: ChainRpc,
  ) {}

  /** The finalized block's number, or undefined where the node names none. */
  async finalized(chainId: number): Promise<bigint | undefined> {
    const chain = this.chains.get(chainId);
    if (!chain || this.without.has(chainId)) return undefined;
    try {
      const block = await this.rpc.client(chain).getBlock({ blockTag: 'finalized' });
      return block.number ?? undefined;
    } catch (error) {
      if (rpcFailureKind(error) !== 'rejected') {
        throw this.rpc.failure(chain, 'the finalized block', error);
      }
      this.without.add(chainId);
      this.logger.warn(
        `Chain ${chainId}: the node names no finalized block; TX_CONFIRMATIONS alone decides when an intent settles`,
      );
      return undefined;
    }
  }
}
