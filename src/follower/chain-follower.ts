import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { PublicClient } from 'viem';
import { ChainRegistry, type ChainInfo } from '../evm';
import { reasonText } from '../evm/chains/chain-rpc';
import { ActionRegistry } from '../kit/action.registry';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import { type BlockSubscriber, toFollowedBlock } from './followed-block';
import { forkPoint } from './fork-point';
import { FOLLOWER_CONFIG, type FollowerConfig } from './follower.config';
import { FollowerMetrics } from './follower.metrics';
import { FOLLOWER_STATE, type FollowerCursor, type FollowerState } from './follower-state';

/** Blocks one pass reads at most: a pass far behind still ends soon, and the lease is renewed. */
const BLOCKS_PER_PASS = 100n;

/**
 * Follows every served chain block by block, so the service learns what its users sent without
 * anyone reporting it. Its cost is per block, never per open intent: each pass asks the head
 * once, then reads each new block with its transactions once, and hands it to the subscriber
 * (src/outcomes), which matches it in memory or in one Redis lookup. One replica follows a chain
 * at a time (a lease in the state); the cursor lets a restart resume where the last pass stopped.
 */
@Injectable()
export class ChainFollower implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ChainFollower');
  private readonly owner = randomUUID();
  private subscriber?: BlockSubscriber;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** Passes run one after another: a test's pass waits for the scheduled one, never overlaps it. */
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  /** Chains whose last pass here found nothing to watch, so made no call. */
  private readonly idle = new Set<number>();
  private chainsFollowed?: ChainInfo[];

  constructor(
    private readonly chains: ChainRegistry,
    private readonly actions: ActionRegistry,
    @Inject(FOLLOWER_CONFIG) private readonly config: FollowerConfig,
    @Inject(FOLLOWER_STATE) private readonly state: FollowerState,
    private readonly metrics: FollowerMetrics,
  ) {}

  /** The one consumer of the blocks (src/outcomes registers itself at init). */
  subscribe(subscriber: BlockSubscriber): void {
    this.subscriber = subscriber;
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    // Handing the lease back lets another replica follow at once instead of after its expiry.
    await Promise.all(
      this.chains
        .all()
        .map((c) => this.state.release(c.chainId, this.owner).catch(() => undefined)),
    );
  }

  /** One pass over every served chain. Exposed for tests that drive the chain block by block. */
  pass(): Promise<void> {
    const run = this.queue.then(() => this.passOnce());
    this.queue = run;
    return run;
  }

  private async passOnce(): Promise<void> {
    const subscriber = this.subscriber;
    if (!subscriber) return;
    const chains = this.followed();
    const ids = chains.map((chain) => chain.chainId);
    let watching: boolean;
    try {
      watching = await subscriber.watching(ids);
    } catch (error) {
      // Not idle: what is open is unknown (Redis out), so the cursor is kept for the catch-up.
      limitLog(this.logger).warn('watching', `No pass: ${logText(safeText(error))}`);
      return;
    }
    if (!watching) {
      for (const id of ids) this.idle.add(id);
      return;
    }
    for (const chain of chains) {
      if (this.stopped) return;
      await this.follow(chain, subscriber).catch((error: unknown) => {
        limitLog(this.logger).warn(
          `pass ${chain.chainId}`,
          `Following chain ${chain.chainId} failed this pass: ${logText(safeText(error))}`,
        );
      });
    }
  }

  /** The chains transaction actions answer on: the only ones an intent can name (fixed at boot). */
  private followed(): ChainInfo[] {
    return (this.chainsFollowed ??= this.chains
      .all()
      .filter((chain) =>
        this.actions
          .actions()
          .some(
            (action) => action.responseType !== 'data' && action.chains.source === chain.chainId,
          ),
      ));
  }

  private async follow(chain: ChainInfo, subscriber: BlockSubscriber): Promise<void> {
    const { chainId } = chain;
    const leaseMs = Math.max(10_000, this.config.pollMs * 5);
    if (!(await this.state.lease(chainId, this.owner, leaseMs))) return;
    const client = this.chains.client(chain);
    const head = await client.getBlockNumber({ cacheTime: 0 });
    let cursor = await this.state.cursor(chainId);
    // A first start reads back OUTCOME_REORG_DEPTH blocks: what was mined since the first
    // intents were answered, before the first pass.
    const back = BigInt(this.config.reorgDepth);
    let next = cursor ? cursor.number + 1n : head > back ? head - back : 0n;
    // Back from idle: nothing was open, so nothing older than the last pass matters; reading back
    // OUTCOME_REORG_DEPTH blocks covers the time since (the catch-up is for restarts and outages).
    if (this.idle.delete(chainId) && cursor && head - back > next) {
      next = head - back;
      cursor = undefined;
    }
    const catchup = BigInt(this.config.catchupBlocks);
    if (cursor && head - cursor.number > catchup) {
      next = head - catchup + 1n;
      this.metrics.skippedBlocks(chainId, next - cursor.number - 1n);
      this.logger.warn(
        `Chain ${chainId}: ${next - cursor.number - 1n} blocks after ${cursor.number} were skipped (more than OUTCOME_CATCHUP_BLOCKS behind); their transactions are seen only if reported`,
      );
      cursor = undefined;
    }
    const last = next + BLOCKS_PER_PASS - 1n < head ? next + BLOCKS_PER_PASS - 1n : head;
    while (next <= last && !this.stopped) {
      const block = await client.getBlock({ blockNumber: next, includeTransactions: true });
      if (cursor && block.parentHash !== cursor.hash) {
        cursor = await this.rewind(chain, client, cursor, subscriber);
        next = cursor.number + 1n;
        continue;
      }
      await subscriber.block(toFollowedBlock(chainId, block));
      cursor = { number: block.number, hash: block.hash };
      await this.state.advance(chainId, cursor, this.config.reorgDepth);
      this.metrics.followed(chainId);
      next += 1n;
    }
    await subscriber.head(chainId, head);
  }

  /** Hands the subscriber the fork point to undo what it saw above it, and moves back to it. */
  private async rewind(
    chain: ChainInfo,
    client: PublicClient,
    cursor: FollowerCursor,
    subscriber: BlockSubscriber,
  ): Promise<FollowerCursor> {
    const { chainId } = chain;
    this.metrics.reorged(chainId);
    const { ancestor, deep } = await forkPoint(this.state, client, chainId, cursor);
    if (deep) {
      this.logger.error(
        `Chain ${chainId}: a reorg deeper than OUTCOME_REORG_DEPTH (${this.config.reorgDepth}) blocks below ${cursor.number}; outcomes settled before block ${ancestor.number} are not revisited`,
      );
    }
    this.logger.warn(`Chain ${chainId}: reorg; blocks after ${ancestor.number} left the chain`);
    await subscriber.rewound(chainId, ancestor.number);
    await this.state.rewind(chainId, ancestor);
    return ancestor;
  }

  private schedule(delayMs = this.config.pollMs): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, delayMs);
    this.timer.unref();
  }
}

/** viem's errors quote the node's URL (keys included): its short text, through reasonText. */
function safeText(error: unknown): string {
  const short = (error as { shortMessage?: unknown }).shortMessage;
  return reasonText(typeof short === 'string' ? short : String(error));
}
