import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type * as BullMq from 'bullmq';
import { bulkhead } from 'cockatiel';
import { LRUCache } from 'lru-cache';
import { setTimeout as delay } from 'node:timers/promises';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import {
  type AttemptStop,
  DELIVERY_CONCURRENCY,
  deliveryBackoff,
  deliveryKey,
  type DeliveryQueue,
  type WebhookDelivery,
} from './webhook-delivery';
import { WebhookMetrics } from './webhook.metrics';
import { WebhookSender } from './webhook.sender';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/** The signals main.ts's GracefulShutdown stops the service on. */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * The share of SHUTDOWN_TIMEOUT_MS an attempt in flight at the signal may still take: the rest is
 * for draining requests and closing, so a receiver that never answers (WEBHOOK_TIMEOUT_MS may be
 * as long as the shutdown timeout) cannot turn a clean exit into a forced one.
 */
const IN_FLIGHT_SHARE = 0.5;

/**
 * Deliveries without Redis: kept in this process, retried on the same schedule as the BullMQ
 * queue, at most WEBHOOK_MEMORY_MAX waiting or in flight. They do not survive a restart. The
 * queue stops at SIGTERM itself, not when the application closes after the drain: from the
 * signal no attempt starts (retry timers are cleared, deliveries waiting are dropped and counted
 * in one log line), and attempts in flight may finish within IN_FLIGHT_SHARE of the timeout.
 */
@Injectable()
export class MemoryDeliveryQueue implements DeliveryQueue, OnApplicationShutdown {
  readonly durable = false;
  private readonly logger = new Logger('Webhooks');
  private readonly running = new Map<string, Promise<void>>();
  /** Ids delivered or given up lately: the same outcome twice is still one delivery. */
  private readonly settled: LRUCache<string, true>;
  private readonly slots = bulkhead(DELIVERY_CONCURRENCY, Number.MAX_SAFE_INTEGER);
  private readonly stopping = new AbortController();
  private readonly cutoff = new AbortController();
  private cutoffTimer?: NodeJS.Timeout;
  private readonly backoff: (attemptsMade: number) => number;
  private dropped = 0;

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @Inject(APP_CONFIG) private readonly app: AppConfig,
    private readonly sender: WebhookSender,
    private readonly metrics: WebhookMetrics,
  ) {
    this.settled = new LRUCache({ max: config.memoryMax });
    const { delay: base = config.backoffMs, jitter } = deliveryBackoff(config);
    // BullMQ's own strategy, so both queues back off alike; required only once webhooks are on.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Backoffs } = require('bullmq') as typeof BullMq;
    const strategy = Backoffs.builtinStrategies.exponential(base, jitter);
    this.backoff = (attemptsMade) => Number(strategy(attemptsMade));
    // GracefulShutdown closes the application only once requests have drained (seconds later,
    // after SHUTDOWN_DELAY_MS): told by the close alone, retries would go on meanwhile.
    for (const signal of SIGNALS) process.on(signal, this.onSignal);
  }

  enqueue(delivery: WebhookDelivery): Promise<void> {
    const { id } = delivery;
    const key = deliveryKey(delivery);
    if (this.running.has(key) || this.settled.has(key)) return Promise.resolve();
    if (this.stopping.signal.aborted || this.running.size >= this.config.memoryMax) {
      this.metrics.record(delivery.type, 'failed');
      this.logger.error(
        `Webhook ${id} dropped: ${this.stopping.signal.aborted ? 'shutting down' : `${this.config.memoryMax} deliveries waiting already (WEBHOOK_MEMORY_MAX)`}`,
      );
      return Promise.resolve();
    }
    const run = this.run(delivery).finally(() => {
      this.running.delete(key);
      this.settled.set(key, true);
    });
    this.running.set(key, run);
    return Promise.resolve();
  }

  private async run(delivery: WebhookDelivery): Promise<void> {
    const { maxAttempts } = this.config;
    const { signal } = this.stopping;
    const stop: AttemptStop = { stopping: signal, cutoff: this.cutoff.signal };
    for (let attempt = 1; ; attempt += 1) {
      try {
        // Checked once the slot is free: a delivery queued behind others starts nothing late.
        const started = await this.slots.execute(async () => {
          if (signal.aborted) return false;
          await this.sender.attempt(delivery, attempt, maxAttempts, stop);
          return true;
        });
        if (!started) this.dropped += 1;
        return;
      } catch {
        // A failure after the signal was logged by the sender as not retried.
        if (signal.aborted || attempt >= maxAttempts) return;
      }
      try {
        await delay(this.backoff(attempt), undefined, { signal });
      } catch {
        this.dropped += 1;
        return;
      }
    }
  }

  /** A signal's listener replaces its default exit: raised again when no other listener is left. */
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.stop();
    // main.ts's GracefulShutdown listens too; an application created without it (a test's, a
    // script's) must still end on the signal as the process would have without this listener.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };

  /** No attempt starts from now on; attempts in flight are abandoned past their share. */
  private stop(): void {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
    const grace = Math.floor(this.app.shutdownTimeoutMs * IN_FLIGHT_SHARE);
    this.cutoffTimer = setTimeout(() => this.cutoff.abort(), grace);
  }

  /** Closed with the application, after a signal or without one (tests, scripts). */
  async onApplicationShutdown(): Promise<void> {
    this.stop();
    await Promise.allSettled(this.running.values());
    clearTimeout(this.cutoffTimer);
    if (this.dropped > 0)
      this.logger.warn(
        `${this.dropped} webhook deliveries dropped waiting for an attempt: without REDIS_URL they are kept in memory only`,
      );
  }
}
