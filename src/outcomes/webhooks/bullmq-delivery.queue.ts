import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import {
  DELIVERY_CONCURRENCY,
  deliveryBackoff,
  type DeliveryQueue,
  type WebhookDelivery,
} from './webhook-delivery';
import { WebhookSender } from './webhook.sender';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/** The BullMQ queue of deliveries, and the configuration key of its connection. */
export const WEBHOOK_QUEUE = 'webhooks';

/** Finished jobs kept this long (and at most KEPT_JOBS of each): adding one again is a no-op. */
const KEPT_SECONDS = 7 * 24 * 3600;
const KEPT_JOBS = 10_000;

/**
 * Deliveries in Redis (REDIS_URL): a job per delivery, its id the delivery's, so queueing one
 * twice keeps one; BullMQ retries it with exponential backoff and jitter up to
 * WEBHOOK_MAX_ATTEMPTS. A job waiting for a retry survives a restart of every replica, and any
 * replica's worker may make the next attempt.
 */
@Injectable()
export class BullDeliveryQueue implements DeliveryQueue {
  readonly durable = true;

  constructor(
    @InjectQueue(WEBHOOK_QUEUE) private readonly queue: Queue<WebhookDelivery>,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  async enqueue(delivery: WebhookDelivery): Promise<void> {
    await this.queue.add(delivery.type, delivery, {
      jobId: delivery.id,
      attempts: this.config.maxAttempts,
      backoff: deliveryBackoff(this.config),
      removeOnComplete: { age: KEPT_SECONDS, count: KEPT_JOBS },
      removeOnFail: { age: KEPT_SECONDS, count: KEPT_JOBS },
    });
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
}
