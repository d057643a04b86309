import { Inject, Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { redactUrl } from '../../config/redact-url';
import type { OutcomeSink, TransactionOutcome } from '../outcome.types';
import { ACTION_WEBHOOKS, type ActionWebhooks } from './action-webhooks';
import { DELIVERY_QUEUE, type DeliveryQueue, toDelivery } from './webhook-delivery';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/**
 * The OUTCOME_SINK of webhooks: each settled outcome becomes one signed delivery to WEBHOOK_URL
 * and, when its action has a webhook of its own, one more to that one (with the intent's
 * fields), queued (not sent) so the watcher never waits on a receiver. With no receiver there is
 * no queue and outcomes are not announced.
 */
@Injectable()
export class WebhookDispatcher implements OutcomeSink, OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @Optional() @Inject(DELIVERY_QUEUE) private readonly queue?: DeliveryQueue,
    @Optional() @Inject(ACTION_WEBHOOKS) private readonly targets: ActionWebhooks = new Map(),
  ) {}

  onModuleInit(): void {
    if (!this.queue) return;
    const kept = this.queue.durable
      ? 'queued in Redis'
      : 'queued in memory (REDIS_URL unset: waiting deliveries do not survive a restart)';
    const attempts = `${this.config.maxAttempts} attempts at most`;
    if (this.config.url)
      this.logger.log(`Outcomes are posted to ${redactUrl(this.config.url)}, ${kept}, ${attempts}`);
    for (const [path, { url }] of this.targets)
      this.logger.log(`Outcomes of ${path} are posted to ${redactUrl(url)}, ${kept}, ${attempts}`);
  }

  /**
   * Queues the outcome for every receiver it has; a second call for the same outcome queues
   * nothing new (each job's id is its delivery key), so a relay that failed half-way may repeat.
   */
  async deliver(outcome: TransactionOutcome): Promise<void> {
    if (!this.queue) return;
    if (this.config.url) await this.queue.enqueue(toDelivery(outcome));
    const { action } = outcome.intent;
    if (this.targets.has(action)) await this.queue.enqueue(toDelivery(outcome, action));
  }
}
