import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { Hash } from 'viem';
import { ActionException } from '../contract/action.exception';
import { logText } from '../telemetry/logging/log-text';
import { currentRequestId } from '../telemetry/request-scope';
import {
  INTENT_STORE,
  type IntentStore,
  readIntent,
  serializeIntent,
  type StoredIntent,
} from './intent-store';
import { IntentVerifier } from './intent-verifier';
import { OutcomeHooks } from './outcome-hooks';
import { OutcomeMetrics } from './outcome-metrics';
import {
  type IntentStatus,
  SETTLED_STATUSES,
  type SettledStatus,
  type TransactionIntent,
} from './outcome.types';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';

/** The longest wait between two looks at a submitted intent (see nextLook). */
export const MAX_LOOK_INTERVAL_MS = 5 * 60_000;

export const isSettled = (status: IntentStatus): status is SettledStatus =>
  (SETTLED_STATUSES as readonly string[]).includes(status);

/**
 * An intent's life: recorded when answered, given its hash by a report, moved by what the chain
 * says until it settles or expires. Every move is a compare-and-set in the store; the replica
 * whose write lands logs it, counts it and, for a settled status, tells the hooks and the sink.
 */
@Injectable()
export class IntentsService {
  private readonly logger = new Logger('Intents');

  constructor(
    @Inject(INTENT_STORE) private readonly store: IntentStore,
    @Inject(OUTCOMES_CONFIG) private readonly config: OutcomesConfig,
    private readonly verifier: IntentVerifier,
    private readonly hooks: OutcomeHooks,
    private readonly metrics: OutcomeMetrics,
  ) {}

  async record(intent: TransactionIntent): Promise<void> {
    await this.store.create(intent, this.deadline(intent));
    this.metrics.entered(intent.action, 'answered');
  }

  /** The intent, or a 404 in the envelope. */
  async read(id: string): Promise<TransactionIntent> {
    return (await this.find(id)).intent;
  }

  /**
   * The wallet's hash for an intent. Again the same hash: the intent as it stands. Another hash:
   * taken while nothing settled (a wallet that sped the transaction up sends a new one), a 409
   * after. One look at the chain follows, bounded by the node's timeout; the watcher does the rest.
   */
  async report(id: string, hash: Hash): Promise<TransactionIntent> {
    const normalized = hash.toLowerCase() as Hash;
    for (;;) {
      const stored = await this.find(id);
      const { intent } = stored;
      if (intent.hash === normalized) return intent;
      if (isSettled(intent.status)) {
        throw new ActionException(
          HttpStatus.CONFLICT,
          'The intent has settled with another transaction',
          {
            message: `This transaction intent is already ${intent.status} with another hash`,
            data: { code: 'INTENT_SETTLED' },
            code: 'INTENT_SETTLED',
          },
        );
      }
      if (Date.now() >= this.deadline(intent)) {
        // Past its deadline before the watcher got to it: it expires now, and the report is late.
        await this.check(stored);
        continue;
      }
      const submitted: TransactionIntent = {
        ...intent,
        status: 'submitted',
        hash: normalized,
        blockNumber: undefined,
        updatedAt: Date.now(),
      };
      if (!(await this.store.replace(stored, submitted, Date.now() + this.config.pollMs))) continue;
      this.transitioned(intent, submitted);
      return this.check(readIntent(serializeIntent(submitted)));
    }
  }

  /**
   * Looks at a submitted intent's hash on the chain and applies the verdict; past its deadline
   * an intent still unsettled expires. A node failure keeps it as it is (logged once a minute
   * by the node's client) for the next look.
   */
  async check(stored: StoredIntent): Promise<TransactionIntent> {
    const { intent } = stored;
    if (isSettled(intent.status)) return intent;
    const now = Date.now();
    if (now >= this.deadline(intent)) return this.move(stored, { status: 'expired' });
    if (intent.status === 'answered' || !intent.hash) {
      await this.store.replace(stored, intent, this.deadline(intent));
      return intent;
    }
    try {
      const verdict = await this.verifier.verify(intent, intent.hash);
      const blockNumber = verdict.blockNumber?.toString();
      if (verdict.status === 'submitted' && blockNumber === intent.blockNumber) {
        await this.store.replace(stored, intent, this.nextLook(intent, now));
        return intent;
      }
      return this.move(stored, { status: verdict.status, blockNumber });
    } catch (error) {
      this.logger.debug(
        `Intent ${intent.id}: the chain did not answer (${logText(String(error))})`,
      );
      await this.store.replace(stored, intent, this.nextLook(intent, now));
      return intent;
    }
  }

  /**
   * When to look again at a submitted intent the chain has not settled: every OUTCOME_POLL_MS at
   * first, then a tenth of the time since it last moved, at most every five minutes. A hash that
   * is never mined (dropped, or of another chain) then costs a few hundred looks in a day of
   * INTENT_TTL_S, not one per poll.
   */
  private nextLook(intent: TransactionIntent, now: number): number {
    const quiet = now - intent.updatedAt;
    return now + Math.min(Math.max(this.config.pollMs, quiet / 10), MAX_LOOK_INTERVAL_MS);
  }

  /** The watcher's look at one due intent. */
  async checkById(id: string): Promise<void> {
    const stored = await this.store.get(id);
    if (!stored) return this.store.forget(id);
    await this.check(stored);
  }

  private async move(
    stored: StoredIntent,
    change: Pick<TransactionIntent, 'status' | 'blockNumber'>,
  ): Promise<TransactionIntent> {
    const next: TransactionIntent = { ...stored.intent, ...change, updatedAt: Date.now() };
    const settled = isSettled(next.status);
    const dueAt = settled ? null : Date.now() + this.config.pollMs;
    if (!(await this.store.replace(stored, next, dueAt))) {
      // Another replica (or request) moved it first: its state is the answer.
      return (await this.store.get(next.id))?.intent ?? next;
    }
    this.transitioned(stored.intent, next);
    if (isSettled(next.status)) {
      const outcome = { status: next.status, intent: next, occurredAt: next.updatedAt };
      this.hooks.dispatch(outcome).catch((error: unknown) => {
        this.logger.error(
          `Intent ${next.id}: its ${next.status} hooks could not be claimed (${logText(String(error))})`,
        );
      });
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
