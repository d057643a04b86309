import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { ActionMetrics } from '../telemetry/metrics/action-metrics';

/** The follower's Prometheus families; the chain label is a configured chain id: bounded. */
@Injectable()
export class FollowerMetrics {
  private readonly blocks: Counter<'chain'>;
  private readonly skipped: Counter<'chain'>;
  private readonly reorgs: Counter<'chain'>;
  private readonly broken: Counter<'chain'>;
  private readonly oversize: Counter<'chain'>;
  private readonly fenced: Counter<'chain'>;

  constructor(metrics: ActionMetrics) {
    const registers = [metrics.registry];
    this.blocks = new Counter({
      name: 'dynamic_action_follower_blocks_total',
      help: 'Blocks the chain follower read and matched against open intents, by chain',
      labelNames: ['chain'],
      registers,
    });
    this.skipped = new Counter({
      name: 'dynamic_action_follower_skipped_blocks_total',
      help: 'Blocks the follower skipped, catching up past OUTCOME_CATCHUP_BLOCKS, by chain',
      labelNames: ['chain'],
      registers,
    });
    this.reorgs = new Counter({
      name: 'dynamic_action_follower_reorgs_total',
      help: 'Reorgs the follower undid (blocks it had handed on left the chain), by chain',
      labelNames: ['chain'],
      registers,
    });
    this.broken = new Counter({
      name: 'dynamic_action_follower_broken_links_total',
      help: 'Blocks the follower took as they came, their parent found nowhere within OUTCOME_REORG_DEPTH or not chaining after a rewind, by chain',
      labelNames: ['chain'],
      registers,
    });
    this.oversize = new Counter({
      name: 'dynamic_action_follower_oversize_transactions_total',
      help: 'Transactions the follower skipped, their JSON alone over the RPC answer cap, by chain',
      labelNames: ['chain'],
      registers,
    });
    this.fenced = new Counter({
      name: 'dynamic_action_follower_fenced_writes_total',
      help: "Writes refused because the follower's lease had been taken over (a stale fencing token), by chain",
      labelNames: ['chain'],
      registers,
    });
  }

  fencedWrite(chainId: number): void {
    this.fenced.labels(String(chainId)).inc();
  }

  followed(chainId: number): void {
    this.blocks.labels(String(chainId)).inc();
  }

  skippedBlocks(chainId: number, count: bigint): void {
    this.skipped.labels(String(chainId)).inc(Number(count));
  }

  reorged(chainId: number): void {
    this.reorgs.labels(String(chainId)).inc();
  }

  brokenLink(chainId: number): void {
    this.broken.labels(String(chainId)).inc();
  }

  oversized(chainId: number, count: number): void {
    this.oversize.labels(String(chainId)).inc(count);
  }
}
