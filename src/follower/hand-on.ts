import type { Logger } from '@nestjs/common';
import { limitLog } from '../telemetry/logging/log-limiter';
import type { BlockReader, ReadBlock } from './block-reader';
import type { BlockSubscriber } from './followed-block';
import type { Fence } from './follower-state';
import type { FollowerMetrics } from './follower.metrics';

/** Where a block goes, and where what was skipped of it is told. */
export interface HandOnContext {
  chainId: number;
  /** The follower's lease: the subscriber's writes carry it. */
  fence: Fence;
  reader: BlockReader;
  subscriber: BlockSubscriber;
  metrics: FollowerMetrics;
  logger: Logger;
}

/**
 * Hands the subscriber one block, in as many pages as its reader reads it in: one answer's worth
 * of transactions held at a time. Transactions skipped for their size are logged, counted
 * (dynamic_action_follower_oversize_transactions_total) and told once for the block (`skipped`,
 * `oversize`). A block that fails half-way is taken
 * back (`rewound` to the block below) before the error goes on, so what its first pages moved is
 * undone if the block leaves the chain before the next pass reads it again.
 */
export async function handOn(context: HandOnContext, block: ReadBlock): Promise<void> {
  const { chainId, fence, reader, subscriber, metrics, logger } = context;
  const { number, hash } = block;
  let handed = false;
  let skipped = 0;
  try {
    for await (const page of reader.pages(block)) {
      skipped += page.oversize.length;
      // A page of nothing but skipped transactions: nothing to match.
      if (page.transactions.length === 0 && page.oversize.length > 0) continue;
      await subscriber.block({ chainId, number, hash, transactions: page.transactions, fence });
      handed = true;
    }
  } catch (error) {
    if (handed && block.transactions === undefined) {
      await subscriber.rewound(chainId, number - 1n, fence).catch(() => undefined);
    }
    throw error;
  }
  if (skipped > 0) {
    metrics.oversized(chainId, skipped);
    limitLog(logger).warn(
      `oversize ${chainId}`,
      `Chain ${chainId}: ${skipped} transaction(s) of block ${number} skipped, each alone over the RPC answer cap; seen only if reported`,
    );
    await subscriber.skipped(chainId, number, number, 'oversize');
  }
}
