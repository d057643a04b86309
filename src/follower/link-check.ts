import type { Logger } from '@nestjs/common';
import { limitLog } from '../telemetry/logging/log-limiter';
import type { BlockHeader, BlockReader } from './block-reader';
import type { BlockSubscriber } from './followed-block';
import type { FollowerMetrics } from './follower.metrics';
import type { Fence, FollowerCursor, FollowerState } from './follower-state';
import { forkPoint } from './fork-point';

/** What one pass over one chain checks parent links with. */
export interface LinkCheckContext {
  chainId: number;
  fence: Fence;
  state: FollowerState;
  reader: BlockReader;
  subscriber: BlockSubscriber;
  metrics: FollowerMetrics;
  logger: Logger;
  /** OUTCOME_REORG_DEPTH. */
  depth: number;
}

/**
 * One pass's check that each block's parent is the cursor. A block that does not chain is a
 * reorg: the subscriber is rewound to the fork point, and the blocks above it are read again up
 * to the one that did not chain. If a link still does not agree there, or no common block lies
 * within OUTCOME_REORG_DEPTH, the node's blocks do not chain: they are taken as they come for the
 * rest of the pass (logged, counted in dynamic_action_follower_broken_links_total), so a node
 * that never agrees with itself costs one rewind a pass, never an endless one.
 */
export class LinkCheck {
  private rewoundAt?: bigint;
  private trusted = true;

  constructor(private readonly context: LinkCheckContext) {}

  /** Where to read on from: undefined when `block` is to be handed on, else the fork point. */
  async check(block: BlockHeader, cursor?: FollowerCursor): Promise<FollowerCursor | undefined> {
    if (!cursor || block.parentHash === cursor.hash) return undefined;
    const { chainId, metrics, logger } = this.context;
    if (this.trusted && (this.rewoundAt === undefined || block.number > this.rewoundAt)) {
      this.rewoundAt = block.number;
      return this.rewind(cursor);
    }
    this.trusted = false;
    metrics.brokenLink(chainId);
    limitLog(logger).warn(
      `links ${chainId}`,
      `Chain ${chainId}: block ${block.number}'s parent is not block ${cursor.number} as the node gave it, even after a rewind; taken as it comes`,
    );
    return undefined;
  }

  /** Hands the subscriber the fork point to undo what it saw above it, and moves back to it. */
  private async rewind(cursor: FollowerCursor): Promise<FollowerCursor> {
    const { chainId, fence, state, reader, subscriber, metrics, logger, depth } = this.context;
    metrics.reorged(chainId);
    const { ancestor, deep } = await forkPoint(state, reader, chainId, cursor, depth);
    if (deep) {
      this.trusted = false;
      metrics.brokenLink(chainId);
      logger.error(
        `Chain ${chainId}: no block shared with the node within OUTCOME_REORG_DEPTH (${depth}) blocks below ${cursor.number}; following the node's chain from block ${ancestor.number}, outcomes settled before it are not revisited`,
      );
    }
    logger.warn(`Chain ${chainId}: reorg; blocks after ${ancestor.number} left the chain`);
    await subscriber.rewound(chainId, ancestor.number, fence);
    await state.rewind(fence, ancestor);
    return ancestor;
  }
}
