import { Injectable } from '@nestjs/common';
import type { Hash } from 'viem';
import { HashLookup, type Lookup } from './hash-lookup';
import type { StoredIntent } from './intent-store';
import { early, hashUsed, mismatch, refuseSettled } from './intent-errors';
import { IntentsService } from './intents.service';
import type { TransactionIntent } from './outcome.types';

/** What a report did: the intent as it now stands, and whether the chain knew the hash. */
export interface Reported {
  intent: TransactionIntent;
  known: boolean;
}

/**
 * Reports of the wallet's hash (`POST /api/transactions/<intent>`, and the blinks' routes through
 * it): a hint, checked against the chain once, that can mark an intent `submitted`, never settle
 * it (the follower does, BlockMatcher).
 */
@Injectable()
export class IntentReports {
  constructor(
    private readonly intents: IntentsService,
    private readonly lookup: HashLookup,
  ) {}

  /**
   * The wallet's hash for an intent, as a hint. One look at the chain: a transaction that does not
   * carry the intent's call as its user ran it is a 422 `HASH_MISMATCH`, its call sent before the
   * answer a 422 `HASH_BEFORE_ANSWER`, one already settling another intent a 409 `HASH_USED`; each
   * changes nothing. The intent's call marks it `submitted`, for the follower to settle when it is
   * deep enough. A hash the node does not know changes nothing.
   */
  async report(id: string, hash: Hash): Promise<Reported> {
    const normalized = hash.toLowerCase() as Hash;
    const stored = await this.intents.find(id);
    if (stored.intent.hash === normalized) return { intent: stored.intent, known: true };
    refuseSettled(stored.intent);
    const look = await this.lookup.lookup(stored.intent, normalized);
    if (look.kind === 'unknown') return { intent: stored.intent, known: false };
    if (look.kind === 'foreign') throw mismatch();
    if (look.kind === 'early') throw early();
    if (!(await this.intents.bindHash(stored.intent, normalized))) throw hashUsed();
    try {
      return await this.submit(id, stored, normalized, look);
    } catch (error) {
      // Settled meanwhile by another transaction, or the store failed: the hash is free again.
      await this.intents.unbindHash(stored.intent, normalized).catch(() => undefined);
      throw error;
    }
  }

  /** Marks the intent `submitted` with the reported transaction (compare-and-set, re-read on a loss). */
  private async submit(
    id: string,
    first: StoredIntent,
    normalized: Hash,
    { tx, seen }: Extract<Lookup, { kind: 'seen' }>,
  ): Promise<Reported> {
    let stored = first;
    for (;;) {
      const { intent } = stored;
      if (intent.hash === normalized) return { intent, known: true };
      refuseSettled(intent);
      // Already seen mined with another transaction: the chain's word stands over the hint.
      if (intent.blockNumber !== undefined) {
        await this.intents.unbindHash(intent, normalized);
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
      const moved = await this.intents.move(stored, next);
      if (moved) {
        if (intent.hash) await this.intents.unbindHash(intent, intent.hash);
        return { intent: moved, known: true };
      }
      stored = await this.intents.find(id);
    }
  }
}
