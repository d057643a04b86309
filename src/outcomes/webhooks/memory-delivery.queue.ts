import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type * as BullMq from 'bullmq';
import { bulkhead } from 'cockatiel';
import { LRUCache } from 'lru-cache';
import { setTimeout as delay } from 'node:timers/promises';
import {
  DELIVERY_CONCURRENCY,
  deliveryBackoff,
  type DeliveryQueue,
  type WebhookDelivery,
} from './webhook-delivery';
import { WebhookMetrics } from './webhook.metrics';
import { WebhookSender } from './webhook.sender';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/**
 * Deliveries without Redis: kept in this process, retried on the same schedule as the BullMQ
 * queue, at most WEBHOOK_MEMORY_MAX waiting or in flight. They do not survive a restart: on
 * shutdown, attempts in flight finish and the deliveries still waiting are dropped (and counted
 * in the log line).
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
  private readonly backoff: (attemptsMade: number) => number;
  private dropped = 0;

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
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
  }

  enqueue(delivery: WebhookDelivery): Promise<void> {
    const { id } = delivery;
    if (this.running.has(id) || this.settled.has(id)) return Promise.resolve();
    if (this.stopping.signal.aborted || this.running.size >= this.config.memoryMax) {
      this.metrics.record(delivery.type, 'failed');
      this.logger.error(
        `Webhook ${id} dropped: ${this.stopping.signal.aborted ? 'shutting down' : `${this.config.memoryMax} deliveries waiting already (WEBHOOK_MEMORY_MAX)`}`,
      );
      return Promise.resolve();
    }
    const run = this.run(delivery).finally(() => {
      this.running.delete(id);
      this.settled.set(id, true);
    });
    this.running.set(id, run);
    return Promise.resolve();
  }

  private async run(delivery: WebhookDelivery): Promise<void> {
    const { maxAttempts } = this.config;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.slots.execute(() => this.sender.attempt(delivery, attempt, maxAttempts));
        return;
      } catch {
        if (attempt >= maxAttempts) return;
      }
      try {
        await delay(this.backoff(attempt), undefined, { signal: this.stopping.signal });
      } catch {
        this.dropped += 1;
        return;
      }
    }
  }

  /** Attempts in flight finish (each within WEBHOOK_TIMEOUT_MS); waiting ones are dropped. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled(this.running.values());
    if (this.dropped > 0)
      this.logger.warn(
        `${this.dropped} webhook deliveries dropped waiting for a retry: without REDIS_URL they are kept in memory only`,
      );
  }
}
