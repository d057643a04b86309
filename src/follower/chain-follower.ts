import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ChainRegistry, type ChainInfo } from '../evm';
import { ChainRpc, reasonText } from '../evm/chains/chain-rpc';
import { ActionRegistry } from '../kit/action.registry';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import { BlockReader } from './block-reader';
import type { BlockSubscriber } from './followed-block';
import { handOn } from './hand-on';
import { LinkCheck } from './link-check';
import { FOLLOWER_CONFIG, type FollowerConfig } from './follower.config';
import { FollowerMetrics } from './follower.metrics';
import { FencedError, FOLLOWER_STATE, type FollowerState } from './follower-state';

/** Blocks one pass reads at most: a pass far behind still ends soon, and the lease is renewed. */
const BLOCKS_PER_PASS = 100n;

/**
 * Follows every served chain block by block, so the service learns what its users sent without
 * anyone reporting it. Its cost is per block, never per open intent: each pass asks the head
 * once, then reads each new block with its transactions once (a block over the RPC answer cap in
 * pages: BlockReader), and hands it to the subscriber (src/outcomes), which matches it in memory
 * or in one Redis lookup. One replica follows a chain
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
  private readonly readers = new Map<number, BlockReader>();

  constructor(
    private readonly chains: ChainRegistry,
    private readonly rpc: ChainRpc,
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
        if (error instanceof FencedError) this.metrics.fencedWrite(chain.chainId);
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
    const fence = await this.state.lease(chainId, this.owner, leaseMs);
    if (!fence) return;
    const reader = this.reader(chain);
    const head = await reader.head();
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
      await subscriber.skipped(chainId, cursor.number + 1n, next - 1n, 'catch-up');
      cursor = undefined;
    }
    const last = next + BLOCKS_PER_PASS - 1n < head ? next + BLOCKS_PER_PASS - 1n : head;
    const context = {
      chainId,
      fence,
      reader,
      subscriber,
      metrics: this.metrics,
      logger: this.logger,
    };
    const links = new LinkCheck({ ...context, state: this.state, depth: this.config.reorgDepth });
    while (next <= last && !this.stopped) {
      const block = await reader.block(next);
      const ancestor = await links.check(block, cursor);
      if (ancestor) {
        cursor = ancestor;
        next = ancestor.number + 1n;
        continue;
      }
      await handOn(context, block);
      cursor = { number: block.number, hash: block.hash };
      await this.state.advance(fence, cursor, this.config.reorgDepth);
      this.metrics.followed(chainId);
      next += 1n;
      // Renewed per block: a long pass never outlives its lease. Lost: another replica follows.
      const renewed = await this.state.lease(chainId, this.owner, leaseMs);
      if (renewed?.token !== fence.token) throw new FencedError(fence);
    }
    await subscriber.head(chainId, head, fence);
  }

  /** The chain's block reader, on a sender of the follower's own (ChainRpc.ownBatch). */
  private reader(chain: ChainInfo): BlockReader {
    let reader = this.readers.get(chain.chainId);
    if (!reader) {
      reader = new BlockReader(this.rpc.ownBatch(chain), this.rpc.maxBatchCalls);
      this.readers.set(chain.chainId, reader);
    }
    return reader;
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
