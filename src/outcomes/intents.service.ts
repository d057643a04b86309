import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { Hash } from 'viem';
import { ActionException } from '../contract/action.exception';
import { currentRequestId } from '../telemetry/request-scope';
import { isSettled } from './intent-errors';
import {
  type Announcement,
  INTENT_STORE,
  type IntentStore,
  isOpen,
  type StoredIntent,
} from './intent-store';
import { OutboxRelay } from './outbox-relay';
import type { Fence } from '../follower/follower-state';
import { OutcomeMetrics } from './outcome-metrics';
import {
  deliveryIdOf,
  type OutcomeEvent,
  type SettledStatus,
  type TransactionIntent,
  type TransactionOutcome,
} from './outcome.types';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';

/**
 * An intent's life: recorded when answered, moved by what the chain follower sees (BlockMatcher)
 * until it settles, or expired at its deadline (OutcomeWatcher); a report (IntentReports) can
 * mark it `submitted`, never settle it. Every move is a
 * compare-and-set in the store; the replica whose write lands logs it, counts it and, for a
 * settled status, writes its outcome to the outbox with it.
 */
@Injectable()
export class IntentsService {
  private readonly logger = new Logger('Intents');
  /**
   * Overflow ids this replica is expiring now. The answers of one batch to the node are recorded
   * in the same turn, each create listing the user's oldest open ids before any of them has moved:
   * the k-th lists k. Each is read and moved once, by the first record that lists it.
   */
  private readonly expiring = new Set<string>();

  constructor(
    @Inject(INTENT_STORE) private readonly store: IntentStore,
    @Inject(OUTCOMES_CONFIG) private readonly config: OutcomesConfig,
    private readonly relay: OutboxRelay,
    private readonly metrics: OutcomeMetrics,
  ) {}

  /** False when INTENT_MAX_OPEN intents are open already: nothing was recorded. */
  async record(intent: TransactionIntent): Promise<boolean> {
    const { maxOpenPerUser: perUser, maxOpen: total } = this.config;
    const { maxOpenPerClient: perClient, maxOpenClaimed: totalClaimed } = this.config;
    const limits = { perUser, total, perClient, totalClaimed };
    const created = await this.store.create(intent, this.deadline(intent), limits);
    if (!created.created) return false;
    this.metrics.entered(intent.action, 'answered');
    // The oldest open intents of the same user and origin past INTENT_MAX_OPEN_PER_USER, and of
    // the same claiming client past INTENT_MAX_OPEN_PER_CLIENT, expire now, oldest first.
    for (const id of created.overflow) {
      if (this.expiring.has(id)) continue;
      this.expiring.add(id);
      try {
        const stored = await this.store.get(id);
        if (stored && isOpen(stored.intent)) await this.move(stored, { status: 'expired' });
      } finally {
        this.expiring.delete(id);
      }
    }
    return true;
  }

  /** A user's most recent intents on every chain, newest first, at most `limit`. */
  async recentOf(user: string, limit: number): Promise<TransactionIntent[]> {
    return (await this.store.recentOf(user, limit)).map((stored) => stored.intent);
  }

  /** The intent, or a 404 in the envelope. */
  async read(id: string): Promise<TransactionIntent> {
    return (await this.find(id)).intent;
  }

  /** Binds an untagged intent's transaction to it alone (a tagged one's tag already does). */
  bindHash(intent: TransactionIntent, hash: Hash): Promise<boolean> {
    return intent.tagged
      ? Promise.resolve(true)
      : this.store.bindHash(intent.chainId, hash, intent.id);
  }

  /** Frees what bindHash took. */
  async unbindHash(intent: TransactionIntent, hash: Hash): Promise<void> {
    if (!intent.tagged) await this.store.unbindHash(intent.chainId, hash, intent.id);
  }

  /** The expiry watcher's look at one due intent. */
  async expireIfDue(id: string): Promise<void> {
    const stored = await this.store.get(id);
    if (!stored || !isOpen(stored.intent)) return this.store.forget(id);
    const { intent } = stored;
    const now = Date.now();
    // Mined and waiting for its depth: the follower settles it, the clock does not.
    if (intent.blockNumber !== undefined) {
      await this.store.replace(stored, intent, now + MINED_RECHECK_MS);
    } else if (now < this.deadline(intent)) {
      await this.store.replace(stored, intent, this.deadline(intent));
    } else {
      // Blocks the follower skipped unread since the answer: its payment may have gone unseen.
      const since = BigInt(intent.answeredBlock ?? 0);
      const unread = await this.store.skippedSince(intent.chainId, since);
      await this.move(stored, { status: unread ? 'unchecked' : 'expired' });
    }
  }

  /**
   * Moves an intent (a compare-and-set): the intent written, or undefined when another write
   * won. An open intent stays on the expiry schedule; one that settles leaves it, and its outcome
   * enters the outbox in the same write, to be delivered (OutboxRelay). A move the chain follower
   * makes carries its lease (`fence`): refused (FencedError) once another follower took over.
   */
  async move(
    stored: StoredIntent,
    change: Partial<TransactionIntent>,
    fence?: Fence,
  ): Promise<TransactionIntent | undefined> {
    const next: TransactionIntent = { ...stored.intent, ...change, updatedAt: Date.now() };
    const settled = isSettled(next.status);
    const announce =
      settled && !isSettled(stored.intent.status)
        ? this.announcement(next.status as SettledStatus, next, next.updatedAt)
        : undefined;
    const dueAt = settled ? null : this.deadline(next);
    if (!(await this.store.replace(stored, next, dueAt, announce, fence))) return undefined;
    this.transitioned(stored.intent, next);
    if (announce) this.relay.drive(announce);
    return next;
  }

  /**
   * A settled intent whose block left the chain: it keeps its final status (never a second,
   * contradicting one), is marked `reorgedAt`, and its hooks and webhook hear `reorged`, once.
   */
  async reorged(stored: StoredIntent, fence?: Fence): Promise<void> {
    const { intent } = stored;
    if (intent.reorgedAt !== undefined || !isSettled(intent.status)) return;
    const next: TransactionIntent = { ...intent, reorgedAt: Date.now() };
    const announce = this.announcement('reorged', next, next.reorgedAt!);
    if (!(await this.store.replace(stored, next, null, announce, fence))) return;
    this.metrics.entered(intent.action, 'reorged');
    this.logger.warn(
      `Intent ${intent.id} ${intent.status}: its block ${intent.blockNumber} left the chain (reorged past its confirmations)`,
    );
    this.relay.drive(announce);
  }

  /** An outbox entry for an event of an intent, leased to this replica. */
  private announcement(
    status: OutcomeEvent,
    intent: TransactionIntent,
    occurredAt: number,
  ): Announcement {
    const deliveryId = deliveryIdOf(intent.id, status);
    const outcome: TransactionOutcome = { status, deliveryId, intent, occurredAt };
    return { deliveryId, outcome, leaseUntil: this.relay.leaseUntil() };
  }

  private transitioned(from: TransactionIntent, to: TransactionIntent): void {
    if (from.status === to.status) return;
    this.metrics.entered(to.action, to.status);
    const reqId = currentRequestId() ?? to.requestId ?? '-';
    this.logger.log(
      `Intent ${to.id} ${from.status} → ${to.status} (${to.action}, chain ${to.chainId}${to.blockNumber ? `, block ${to.blockNumber}` : ''}, request ${reqId})`,
    );
  }

  /** The intent as stored (with its version), or a 404 in the envelope. */
  async find(id: string): Promise<StoredIntent> {
    const stored = await this.store.get(id);
    if (!stored) {
      throw new ActionException(HttpStatus.NOT_FOUND, 'Unknown transaction intent', {
        message: 'No transaction intent has this id (it may have expired)',
        data: { code: 'INTENT_NOT_FOUND' },
        code: 'INTENT_NOT_FOUND',
      });
    }
    return stored;
  }

  /** When an intent that has not settled expires. */
  private deadline(intent: TransactionIntent): number {
    return intent.createdAt + this.config.ttlMs;
  }
}

/** How often the watcher looks again at a mined intent still short of its confirmations. */
const MINED_RECHECK_MS = 60_000;
