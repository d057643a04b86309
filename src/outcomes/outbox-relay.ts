import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import { outsideRequest } from '../telemetry/logging/outside-request';
import { INTENT_STORE, type IntentStore, type OutboxEntry } from './intent-store';
import { OutcomeHooks } from './outcome-hooks';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';

/** Entries a sweep takes at once. */
const SWEEP_BATCH = 50;

/**
 * Delivers the outbox (issue 43): every outcome is written with the transition that caused it, in
 * one atomic step (IntentStore.replace), leased to the replica that wrote it, which delivers it at
 * once: its webhook queued under its delivery id (a second enqueue keeps one job) and its hooks
 * run. Only then is the entry removed. A replica that dies or fails before that leaves the entry;
 * once its lease ends, a sweep (at boot, then every OUTBOX_SWEEP_MS, on any replica) takes it and
 * delivers it again. Nothing is lost; a duplicate carries the same delivery id.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(INTENT_STORE) private readonly store: IntentStore,
    @Inject(OUTCOMES_CONFIG) private readonly config: OutcomesConfig,
    private readonly hooks: OutcomeHooks,
  ) {}

  /**
   * How long an entry stays with the replica delivering it: its hooks' every backoff, and
   * OUTBOX_SWEEP_MS more for the queue. Past it, another replica's sweep may deliver it again.
   */
  leaseUntil(now = Date.now()): number {
    const backoffs = this.config.hookBackoffMs * 2 ** this.config.hookAttempts;
    return now + backoffs + this.config.outboxSweepMs;
  }

  /** Delivers an entry this replica holds the lease of (just written, or taken by a sweep). */
  drive(entry: OutboxEntry): void {
    if (this.stopped || this.inFlight.has(entry.deliveryId)) return;
    const delivery = outsideRequest(() => this.deliver(entry)).finally(() =>
      this.inFlight.delete(entry.deliveryId),
    );
    this.inFlight.set(entry.deliveryId, delivery);
  }

  /** One sweep: every entry whose lease ended, delivered. Exposed for tests that drive it. */
  async sweep(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const now = Date.now();
      const taken = await this.store.outboxTake(now, this.leaseUntil(now), SWEEP_BATCH);
      taken.forEach((entry) => this.drive(entry));
      if (taken.length < SWEEP_BATCH) return;
      await Promise.all(this.inFlight.values());
    }
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled(this.inFlight.values());
  }

  private async deliver({ deliveryId, outcome }: OutboxEntry): Promise<void> {
    try {
      await this.hooks.dispatch(outcome);
      await this.store.outboxDone(deliveryId);
    } catch (error) {
      // Left in the outbox: a sweep delivers it again once its lease ends.
      limitLog(this.logger).warn(
        'deliver',
        `Outcome ${deliveryId} not delivered yet (${logText(String(error))}); it stays in the outbox`,
      );
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.sweep()
        .catch((error: unknown) => {
          limitLog(this.logger).warn('sweep', `The outbox sweep failed: ${logText(String(error))}`);
        })
        .finally(() => this.schedule(this.config.outboxSweepMs));
    }, delayMs);
    this.timer.unref();
  }
}
