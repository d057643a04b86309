import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Hash } from 'viem';
import { ChainFollower } from '../follower/chain-follower';
import type {
  BlockSubscriber,
  FollowedBlock,
  FollowedTransaction,
  SkipReason,
} from '../follower/followed-block';
import type { Fence } from '../follower/follower-state';
import { FOLLOWER_CONFIG, type FollowerConfig } from '../follower/follower.config';
import { INTENT_STORE, type IntentStore, isOpen, type StoredIntent } from './intent-store';
import { replaces, type Seen, type SeenTransaction, sightingOf } from './intent-match';
import { rank, tagsOf, waiting } from './block-sightings';
import { outcomeOf } from './settled-outcome';
import { Finality } from './finality';
import { Receipts } from './receipts';
import { IntentsService } from './intents.service';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';

/**
 * What the chain follower's blocks mean for intents. A block's senders are matched against the
 * open intents of those users in one store lookup, so a block costs the same however many
 * intents are open; a match marks its intent `submitted` with the block. Once TX_CONFIRMATIONS
 * deep, the transaction's receipt settles it (`confirmed`, `reverted`, or `replaced` for a
 * replacement); a block that left the chain sends what was seen in it back to `answered`.
 */
@Injectable()
export class BlockMatcher implements BlockSubscriber, OnModuleInit {
  private readonly logger = new Logger('Intents');

  constructor(
    private readonly follower: ChainFollower,
    @Inject(INTENT_STORE) private readonly store: IntentStore,
    @Inject(OUTCOMES_CONFIG) private readonly config: OutcomesConfig,
    @Inject(FOLLOWER_CONFIG) private readonly following: FollowerConfig,
    private readonly intents: IntentsService,
    private readonly receipts: Receipts,
    private readonly finality: Finality,
  ) {}

  onModuleInit(): void {
    this.follower.subscribe(this);
  }

  watching(chainIds: readonly number[]): Promise<boolean> {
    return this.store.hasWork(chainIds);
  }

  /**
   * Marks `submitted` what a block's transactions carry: each tagged intent whose tag one of them
   * holds, as its user ran it; each untagged intent whose call one of them is (its hash bound to
   * that intent alone); each intent whose reported pending transaction another one replaced.
   */
  async block(block: FollowedBlock): Promise<void> {
    const tags = tagsOf(block.transactions);
    const senders = [...new Set(block.transactions.map((tx) => tx.from.toLowerCase()))];
    if (senders.length === 0) return;
    const [open, tagged] = await Promise.all([
      this.store.openOf(block.chainId, senders),
      Promise.all([...tags.keys()].map((id) => this.store.get(id))),
    ]);
    const at = { blockNumber: block.number.toString(), blockHash: block.hash };
    const seenIn = (tx: FollowedTransaction): SeenTransaction => ({
      ...tx,
      blockNumber: block.number,
    });
    const moved = new Set<string>();
    const moves: Promise<unknown>[] = [];
    for (const stored of tagged) {
      if (!stored || !waiting(stored, block.chainId) || !stored.intent.tagged) continue;
      for (const tx of tags.get(stored.intent.id) ?? []) {
        const seen = sightingOf(stored.intent, seenIn(tx));
        if (!seen) continue;
        moved.add(stored.intent.id);
        moves.push(this.seen(stored, tx, seen, at, block.fence));
        break;
      }
    }
    const rest = open.filter((s) => waiting(s, block.chainId) && !moved.has(s.intent.id));
    const plain = rest.filter((s) => !s.intent.tagged);
    for (const tx of block.transactions) {
      const calls = plain
        .filter((s) => !moved.has(s.intent.id) && sightingOf(s.intent, seenIn(tx)))
        .sort((a, b) => rank(a, tx) - rank(b, tx));
      for (const stored of calls) {
        if (!(await this.intents.bindHash(stored.intent, tx.hash))) continue;
        moved.add(stored.intent.id);
        moves.push(this.seen(stored, tx, { sighting: 'call' }, at, block.fence));
        break;
      }
    }
    for (const stored of rest) {
      if (moved.has(stored.intent.id)) continue;
      const tx = block.transactions.find((t) => replaces(stored.intent, seenIn(t)));
      if (tx) moves.push(this.seen(stored, tx, { sighting: 'replacement' }, at, block.fence));
    }
    await Promise.all(moves);
  }

  /**
   * Settles what is final now: TX_CONFIRMATIONS deep and, on a node that names a `finalized`
   * block, at or below it. Then forgets what no reorg can reach any more.
   */
  async head(chainId: number, head: bigint, fence?: Fence): Promise<void> {
    const depth = BigInt(this.config.confirmations);
    const waiting = (await this.store.seenFrom(chainId, 0n)).filter(
      ({ intent }) => isOpen(intent) && BigInt(intent.blockNumber!) <= head - depth + 1n,
    );
    const finalized = waiting.length > 0 ? await this.finality.finalized(chainId) : undefined;
    const deep = waiting.filter(
      ({ intent }) => finalized === undefined || BigInt(intent.blockNumber!) <= finalized,
    );
    await Promise.all(deep.map((stored) => this.settle(stored, fence)));
    const reach = BigInt(Math.max(this.following.reorgDepth, this.config.confirmations));
    await this.store.trimSeen(chainId, head - reach);
  }

  /**
   * Blocks the follower could not read (past OUTCOME_CATCHUP_BLOCKS, or a transaction over the
   * RPC answer cap): noted, so an intent of the chain answered before them that is not seen by
   * its deadline ends `unchecked`, not `expired` (its payment may be in them); a report can still
   * settle it.
   */
  async skipped(chainId: number, from: bigint, to: bigint, reason: SkipReason): Promise<void> {
    await this.store.noteSkipped(chainId, from, to);
    this.logger.warn(
      `Chain ${chainId}: blocks ${from}–${to} skipped unread (${reason}); intents open on it end unchecked unless seen or reported`,
    );
  }

  /**
   * Blocks above the one both chains share left the chain: what was seen in them and is still
   * open goes back to `answered`, to be seen again (silently: nothing was announced); what had
   * settled keeps its status and is announced `reorged`, once.
   */
  async rewound(chainId: number, ancestor: bigint, fence?: Fence): Promise<void> {
    const gone = await this.store.seenFrom(chainId, ancestor + 1n);
    await Promise.all(
      gone.map((stored) =>
        isOpen(stored.intent) ? this.reopen(stored, fence) : this.intents.reorged(stored, fence),
      ),
    );
  }

  private async seen(
    stored: StoredIntent,
    tx: FollowedTransaction,
    seen: Seen | { sighting: 'replacement' },
    at: { blockNumber: string; blockHash: Hash },
    fence: Fence | undefined,
  ): Promise<void> {
    const moved = await this.intents.move(
      stored,
      {
        status: 'submitted',
        hash: tx.hash,
        seenAs: seen.sighting,
        userOpNonce: 'userOpNonce' in seen ? seen.userOpNonce?.toString() : undefined,
        pendingNonce: undefined,
        ...at,
      },
      fence,
    );
    const reported = stored.intent.hash;
    // A speed-up mined in place of the reported transaction: the reported hash is free again.
    if (moved && reported && reported !== tx.hash && seen.sighting !== 'replacement') {
      await this.intents.unbindHash(stored.intent, reported);
    }
    if (!moved && seen.sighting === 'call') await this.intents.unbindHash(stored.intent, tx.hash);
  }

  private async settle(stored: StoredIntent, fence?: Fence): Promise<void> {
    const { intent } = stored;
    const receipt = await this.receipts.of(intent.chainId, intent.hash!);
    if (receipt === undefined || receipt.blockHash !== intent.blockHash) {
      // Its block is no longer the chain's (a reorg the follower has not reached yet).
      return this.reopen(stored, fence);
    }
    const status = outcomeOf(intent, receipt);
    // A wallet's transaction that did not run the call after all (its wrapper failed whole).
    if (status === undefined) return this.reopen(stored, fence);
    await this.intents.move(stored, { status }, fence);
  }

  private async reopen(stored: StoredIntent, fence?: Fence): Promise<void> {
    const { intent } = stored;
    this.logger.warn(
      `Intent ${intent.id}: block ${intent.blockNumber} left the chain; watching again`,
    );
    const moved = await this.intents.move(
      stored,
      {
        status: 'answered',
        hash: undefined,
        seenAs: undefined,
        userOpNonce: undefined,
        pendingNonce: undefined,
        blockNumber: undefined,
        blockHash: undefined,
      },
      fence,
    );
    if (moved && intent.hash) await this.intents.unbindHash(intent, intent.hash);
  }
}
