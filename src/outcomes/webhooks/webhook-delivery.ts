import type { BackoffOptions } from 'bullmq';
import type { WebhookEvent, WebhookEventType } from '../../kit/webhook-signature';
import type { TransactionOutcome } from '../outcome.types';
import type { WebhooksConfig } from './webhooks.config';

/** One delivery: what is queued, and sent unchanged on every attempt. */
export interface WebhookDelivery {
  /** `<intent>.<status>`: the `webhook-id` of every attempt, and the queue's job id (dedupe). */
  id: string;
  type: WebhookEventType;
  /** The JSON body, serialized once so every attempt signs and sends the same bytes. */
  body: string;
  /**
   * The action whose own webhook receives it (its path); absent: the service-wide WEBHOOK_URL.
   * Its URL and secret stay in the configuration, never in the queue.
   */
  target?: string;
}

/**
 * A delivery's key in the queue (BullMQ's job id, the memory queue's): its id, and its target
 * when it goes to an action's own webhook, so one outcome is one job per receiver. `@`, not `:`,
 * which BullMQ refuses in an id.
 */
export const deliveryKey = ({ id, target }: WebhookDelivery): string =>
  target === undefined ? id : `${id}@${target}`;

/** Where deliveries wait between attempts: Redis (BullMQ) when configured, else memory. */
export interface DeliveryQueue {
  /** Whether waiting deliveries survive a restart (Redis) or not (memory). */
  readonly durable: boolean;
  /** Resolves once the delivery is queued, not sent; a delivery queued already is not queued again. */
  enqueue(delivery: WebhookDelivery): Promise<void>;
}

export const DELIVERY_QUEUE = Symbol('DELIVERY_QUEUE');

/** The webhook queue's Redis connection (options, or a Cluster instance its owner closes). */
export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

/** What a queue's shutdown tells its attempts (the in-memory queue's; BullMQ's worker has none). */
export interface AttemptStop {
  /** Aborted once the queue starts no more attempts: one failing then is not retried. */
  stopping: AbortSignal;
  /** Aborted once an attempt in flight may take no longer: its request is abandoned. */
  cutoff: AbortSignal;
}

/** Attempts in flight at once, per replica: a burst of outcomes does not flood the receiver. */
export const DELIVERY_CONCURRENCY = 8;

/**
 * Exponential backoff with jitter, BullMQ's own strategy (the in-memory queue runs the same one):
 * before retry n, a delay between half and all of WEBHOOK_BACKOFF_MS × 2^(n-1).
 */
export function deliveryBackoff(config: WebhooksConfig): BackoffOptions {
  return { type: 'exponential', delay: config.backoffMs, jitter: 0.5 };
}

/**
 * The delivery of an outcome: to the service-wide webhook, or (`target`, an action's path) to that
 * action's own, whose body also carries the intent's `fields`.
 */
export function toDelivery(
  { status, intent, occurredAt }: TransactionOutcome,
  target?: string,
): WebhookDelivery {
  const id = `${intent.id}.${status}`;
  const type: WebhookEventType = `transaction.${status}`;
  // A replacement was mined too: its block is the one that settled the intent.
  const mined = status !== 'expired';
  const event: WebhookEvent = {
    id,
    type,
    intent: intent.id,
    action: intent.action,
    chainId: intent.chainId,
    user: intent.user,
    hash: intent.hash ?? null,
    blockNumber: mined ? (intent.blockNumber ?? null) : null,
    occurredAt: new Date(occurredAt).toISOString(),
    ...(target !== undefined && { fields: intent.fields ?? {} }),
  };
  return { id, type, body: JSON.stringify(event), ...(target !== undefined && { target }) };
}
