import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { forwardRef, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { limitLog } from '../../telemetry/logging/log-limiter';
import { routeBullMqConsole } from '../../telemetry/redis/bullmq-console.bridge';
import { isCluster } from '../../telemetry/redis/redis.provider';
import {
  DELIVERY_CONCURRENCY,
  deliveryBackoff,
  deliveryKey,
  QUEUE_CONNECTION,
  type DeliveryQueue,
  type WebhookDelivery,
} from './webhook-delivery';
import { WebhookSender } from './webhook.sender';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/** The BullMQ queue of deliveries, and the configuration key of its connection. */
export const WEBHOOK_QUEUE = 'webhooks';

/**
 * BullMQ's prefix (after REDIS_KEY_PREFIX): a hash tag, so that every key of the queue shares a
 * slot, as BullMQ's scripts need on a Redis Cluster; the same keys on one server. A version
 * before it used `bull` (docs/webhooks.md, "Upgrading").
 */
export const WEBHOOK_QUEUE_PREFIX = '{bull}';

/** Finished jobs kept this long (and at most KEPT_JOBS of each): adding one again is a no-op. */
const KEPT_SECONDS = 7 * 24 * 3600;
const KEPT_JOBS = 10_000;

const logger = new Logger('Webhooks');

/**
 * An error the queue or its worker emits (mostly its Redis connection: refused, reset, timed out),
 * once a minute per message: with no listener BullMQ prints every reconnection's error with
 * console.error, a stack on stderr outside the JSON log.
 */
function queueError(error: Error): void {
  limitLog(logger).warn(`bullmq:${error.message}`, `Webhook queue error: ${error.message}`);
}

/**
 * Deliveries in Redis (REDIS_URL): a job per delivery, its id the delivery's key, so queueing one
 * twice keeps one; BullMQ retries it with exponential backoff and jitter up to
 * WEBHOOK_MAX_ATTEMPTS. A job waiting for a retry survives a restart of every replica, and any
 * replica's worker may make the next attempt.
 */
@Injectable()
export class BullDeliveryQueue implements DeliveryQueue, OnApplicationShutdown {
  readonly durable = true;
  /**
   * BullMQ's console warnings (eviction policy, Redis version) go to the JSON log while the queue
   * is open. Taken here, as the queue is made: BullMQ checks Redis only once a connection is up.
   */
  private readonly releaseConsole = routeBullMqConsole();

  constructor(
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<WebhookDelivery>,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @Inject(QUEUE_CONNECTION) private readonly connection: object,
    // Typed by what is used: WebhookProcessor is declared below (no reference before it exists).
    @Inject(forwardRef(() => WebhookProcessor))
    private readonly processor: { worker: { close(): Promise<void> } },
  ) {
    queue.on('error', queueError);
  }

  async enqueue(delivery: WebhookDelivery): Promise<void> {
    await this.queue.add(delivery.type, delivery, {
      jobId: deliveryKey(delivery),
      attempts: this.config.maxAttempts,
      backoff: deliveryBackoff(this.config),
      removeOnComplete: { age: KEPT_SECONDS, count: KEPT_JOBS },
      removeOnFail: { age: KEPT_SECONDS, count: KEPT_JOBS },
    });
  }

  /**
   * A cluster's connection is an instance BullMQ shares and never closes: closed here, once the
   * queue (and its workers, which the queue's own shutdown closes first) are.
   */
  async onApplicationShutdown(): Promise<void> {
    if (isCluster(this.connection)) {
      await this.processor.worker.close().catch(() => undefined);
      await this.queue.close().catch(() => undefined);
      const cluster = this.connection;
      await cluster.quit().catch(() => cluster.disconnect());
    }
    this.queue.off('error', queueError);
    this.releaseConsole();
  }
}

/** The worker: one attempt per run; a throw is a failed attempt, which BullMQ schedules again. */
@Processor({ name: WEBHOOK_QUEUE, configKey: WEBHOOK_QUEUE }, { concurrency: DELIVERY_CONCURRENCY })
export class WebhookProcessor extends WorkerHost {
  constructor(private readonly sender: WebhookSender) {
    super();
  }

  async process(job: Job<WebhookDelivery>): Promise<void> {
    await this.sender.attempt(job.data, job.attemptsMade + 1, job.opts.attempts ?? 1);
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    queueError(error);
  }
}
