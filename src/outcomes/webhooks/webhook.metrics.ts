import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import type { WebhookEventType } from '../../kit/webhook-signature';
import { ActionMetrics } from '../../telemetry/metrics/action-metrics';

/** How an attempt ended: `retried` failed with attempts left, `failed` was the last one. */
export type DeliveryResult = 'delivered' | 'retried' | 'failed';

const TYPES: readonly WebhookEventType[] = [
  'transaction.confirmed',
  'transaction.reverted',
  'transaction.replaced',
  'transaction.expired',
  'transaction.unchecked',
  'transaction.reorged',
];

/** Webhook attempts, in the service's registry (served on METRICS_PORT with the rest). */
@Injectable()
export class WebhookMetrics {
  private readonly attempts: Counter<'type' | 'result'>;

  constructor(metrics: ActionMetrics) {
    this.attempts = new Counter({
      name: 'dynamic_action_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by event type and result: delivered (2xx), retried (failed, attempts left), failed (the last attempt failed, or no room to keep it)',
      labelNames: ['type', 'result'] as const,
      registers: [metrics.registry],
    });
    // Every series exported from the start, so a rate over it has a beginning.
    for (const type of TYPES)
      for (const result of ['delivered', 'retried', 'failed'] as const)
        this.attempts.labels(type, result).inc(0);
  }

  record(type: WebhookEventType, result: DeliveryResult): void {
    this.attempts.labels(type, result).inc();
  }
}
