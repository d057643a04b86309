import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { Hash } from 'viem';
import { ActionException } from '../contract/action.exception';
import { logText } from '../telemetry/logging/log-text';
import { outsideRequest } from '../telemetry/logging/outside-request';
import { currentRequestId } from '../telemetry/request-scope';
import { HashLookup } from './hash-lookup';
import { early, hashUsed, isSettled, mismatch, refuseSettled } from './intent-errors';
import { INTENT_STORE, type IntentStore, isOpen, type StoredIntent } from './intent-store';
import { OutcomeHooks } from './outcome-hooks';
import { OutcomeMetrics } from './outcome-metrics';
import type { SettledStatus, TransactionIntent } from './outcome.types';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';

/** What a report did: the intent as it now stands, and whether the chain knew the hash. */
export interface Reported {
  intent: TransactionIntent;
  known: boolean;
}

/**
 * An intent's life: recorded when answered, moved by what the chain follower sees (BlockMatcher)
 * until it settles, or expired at its deadline (OutcomeWatcher). A report is a hint: checked
 * against the chain once, it can mark the intent `submitted`, never settle it. Every move is a
 * compare-and-set in the store; the replica whose write lands logs it, counts it and, for a
 * settled status, tells the hooks and the sink.
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
    private readonly lookup: HashLookup,
    private readonly hooks: OutcomeHooks,
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

  /**
   * The wallet's hash for an intent, as a hint. One look at the chain: a transaction that does not
   * carry the intent's call as its user ran it is a 422 `HASH_MISMATCH`, its call sent before the
   * answer a 422 `HASH_BEFORE_ANSWER`, one already settling another intent a 409 `HASH_USED`; each
   * changes nothing. The intent's call marks it `submitted`, for the follower to settle when it is
   * deep enough. A hash the node does not know changes nothing.
   */
  async report(id: string, hash: Hash): Promise<Reported> {
    const normalized = hash.toLowerCase() as Hash;
    let stored = await this.find(id);
    if (stored.intent.hash === normalized) return { intent: stored.intent, known: true };
    refuseSettled(stored.intent);
    const look = await this.lookup.lookup(stored.intent, normalized);
    if (look.kind === 'unknown') return { intent: stored.intent, known: false };
    if (look.kind === 'foreign') throw mismatch();
    if (look.kind === 'early') throw early();
    const { tx, seen } = look;
    if (!(await this.bindHash(stored.intent, normalized))) throw hashUsed();
    for (;;) {
      const { intent } = stored;
      if (intent.hash === normalized) return { intent, known: true };
      refuseSettled(intent);
      // Already seen mined with another transaction: the chain's word stands over the hint.
      if (intent.blockNumber !== undefined) {
        await this.unbindHash(intent, normalized);
        return { intent, known: true };
      }
      const next: TransactionIntent = {
        ...intent,
        status: 'submitted',
        hash: normalized,
        seenAs: seen.sighting,
        userOpNonce: seen.userOpNonce?.toString(),
        // The user's own pending transaction: another mined at its nonce replaces it.
        pendingNonce: tx.blockNumber === null && seen.sighting === 'call' ? tx.nonce : undefined,
        ...(tx.blockNumber !== null && {
          blockNumber: tx.blockNumber.toString(),
          blockHash: tx.blockHash ?? undefined,
        }),
      };
      const moved = await this.move(stored, next);
      if (moved) {
        if (intent.hash) await this.unbindHash(intent, intent.hash);
        return { intent: moved, known: true };
      }
      stored = await this.find(id);
    }
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
      await this.move(stored, { status: 'expired' });
    }
  }

  /**
   * Moves an intent (a compare-and-set): the intent written, or undefined when another write
   * won. An open intent stays on the expiry schedule, a settled one leaves it and its hooks run.
   */
  async move(
    stored: StoredIntent,
    change: Partial<TransactionIntent>,
  ): Promise<TransactionIntent | undefined> {
    const next: TransactionIntent = { ...stored.intent, ...change, updatedAt: Date.now() };
    const settled = isSettled(next.status);
    if (!(await this.store.replace(stored, next, settled ? null : this.deadline(next)))) {
      return undefined;
    }
    this.transitioned(stored.intent, next);
    if (settled) {
      const outcome = {
        status: next.status as SettledStatus,
        intent: next,
        occurredAt: next.updatedAt,
      };
      // Hooks, their retries and the webhook outlive the request that settled the intent (a
      // report): their lines carry no request id of its.
      void outsideRequest(() =>
        this.hooks.dispatch(outcome).catch((error: unknown) => {
          this.logger.error(
            `Intent ${next.id}: its ${next.status} hooks could not be claimed (${logText(String(error))})`,
          );
        }),
      );
    }
    return next;
  }

  private transitioned(from: TransactionIntent, to: TransactionIntent): void {
    if (from.status === to.status) return;
    this.metrics.entered(to.action, to.status);
    const reqId = currentRequestId() ?? to.requestId ?? '-';
    this.logger.log(
      `Intent ${to.id} ${from.status} → ${to.status} (${to.action}, chain ${to.chainId}${to.blockNumber ? `, block ${to.blockNumber}` : ''}, request ${reqId})`,
    );
  }

  private async find(id: string): Promise<StoredIntent> {
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
