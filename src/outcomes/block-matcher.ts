import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { type Hash, TransactionReceiptNotFoundError, type TransactionReceipt } from 'viem';
import { ChainRegistry } from '../evm';
import { ChainRpc } from '../evm/chains/chain-rpc';
import { ChainFollower } from '../follower/chain-follower';
import type {
  BlockSubscriber,
  FollowedBlock,
  FollowedTransaction,
} from '../follower/followed-block';
import { FOLLOWER_CONFIG, type FollowerConfig } from '../follower/follower.config';
import { INTENT_STORE, type IntentStore, isOpen, type StoredIntent } from './intent-store';
import { sightingOf } from './intent-match';
import { IntentsService } from './intents.service';
import type { Sighting } from './outcome.types';
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
    private readonly chains: ChainRegistry,
    private readonly rpc: ChainRpc,
  ) {}

  onModuleInit(): void {
    this.follower.subscribe(this);
  }

  watching(chainIds: readonly number[]): Promise<boolean> {
    return this.store.hasWork(chainIds);
  }

  async block(block: FollowedBlock): Promise<void> {
    const senders = [...new Set(block.transactions.map((tx) => tx.from.toLowerCase()))];
    if (senders.length === 0) return;
    const open = (await this.store.openOf(block.chainId, senders)).filter(
      ({ intent }) => intent.blockNumber === undefined,
    );
    if (open.length === 0) return;
    const moves: Promise<unknown>[] = [];
    for (const tx of block.transactions) {
      for (const [stored, seenAs] of claimed(open, tx)) {
        open.splice(open.indexOf(stored), 1);
        moves.push(
          this.intents.move(stored, {
            status: 'submitted',
            hash: tx.hash,
            seenAs,
            blockNumber: block.number.toString(),
            blockHash: block.hash,
          }),
        );
      }
    }
    await Promise.all(moves);
  }

  /** Settles what is deep enough now, then forgets what no reorg can reach any more. */
  async head(chainId: number, head: bigint): Promise<void> {
    const depth = BigInt(this.config.confirmations);
    const deep = (await this.store.seenFrom(chainId, 0n)).filter(
      ({ intent }) => isOpen(intent) && BigInt(intent.blockNumber!) <= head - depth + 1n,
    );
    await Promise.all(deep.map((stored) => this.settle(stored)));
    const reach = BigInt(Math.max(this.following.reorgDepth, this.config.confirmations));
    await this.store.trimSeen(chainId, head - reach);
  }

  /** Everything seen above the block both chains share goes back to `answered`, to be seen again. */
  async rewound(chainId: number, ancestor: bigint): Promise<void> {
    const gone = await this.store.seenFrom(chainId, ancestor + 1n);
    await Promise.all(gone.map((stored) => this.reopen(stored)));
  }

  private async settle(stored: StoredIntent): Promise<void> {
    const { intent } = stored;
    const receipt = await this.receipt(intent.chainId, intent.hash!);
    if (receipt === undefined || receipt.blockHash !== intent.blockHash) {
      // Its block is no longer the chain's (a reorg the follower has not reached yet).
      return this.reopen(stored);
    }
    const status =
      intent.seenAs === 'replacement'
        ? 'replaced'
        : receipt.status === 'success'
          ? 'confirmed'
          : 'reverted';
    await this.intents.move(stored, { status });
  }

  private async reopen(stored: StoredIntent): Promise<void> {
    const { intent } = stored;
    this.logger.warn(
      `Intent ${intent.id}: block ${intent.blockNumber} left the chain; watching again`,
    );
    await this.intents.move(stored, {
      status: 'answered',
      hash: undefined,
      seenAs: undefined,
      blockNumber: undefined,
      blockHash: undefined,
    });
  }

  private async receipt(chainId: number, hash: Hash): Promise<TransactionReceipt | undefined> {
    const chain = this.chains.get(chainId);
    if (!chain) return undefined;
    try {
      return await this.rpc.client(chain).getTransactionReceipt({ hash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw this.rpc.failure(chain, 'a seen transaction', error);
    }
  }
}

/**
 * The open intents a transaction of their user settles: the oldest whose call it is (one at
 * its nonce first), else every one it replaces at the answer's nonce. A transaction that is the
 * call of one intent is never also a cancel of another answered at the same nonce.
 */
function claimed(open: StoredIntent[], tx: FollowedTransaction): [StoredIntent, Sighting][] {
  const seen = open
    .map((stored) => [stored, sightingOf(stored.intent, tx)] as const)
    .filter((pair): pair is [StoredIntent, Sighting] => pair[1] !== undefined);
  const calls = seen
    .filter(([, sighting]) => sighting === 'call')
    .sort(([a], [b]) => rank(a, tx) - rank(b, tx));
  return calls.length > 0 ? [calls[0]] : seen;
}

const rank = ({ intent }: StoredIntent, tx: FollowedTransaction): number =>
  (intent.nonce === tx.nonce ? 0 : 1e15) + intent.createdAt;
