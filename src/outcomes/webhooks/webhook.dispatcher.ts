import { Inject, Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { redactUrl } from '../../config/redact-url';
import type { OutcomeSink, TransactionOutcome } from '../outcome.types';
import { DELIVERY_QUEUE, type DeliveryQueue, toDelivery } from './webhook-delivery';
import { WEBHOOKS_CONFIG, type WebhooksConfig } from './webhooks.config';

/**
 * The OUTCOME_SINK of webhooks: each settled outcome becomes one signed delivery, queued (not
 * sent) so the watcher never waits on the receiver. Without WEBHOOK_URL there is no queue and
 * outcomes are not announced.
 */
@Injectable()
export class WebhookDispatcher implements OutcomeSink, OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @Optional() @Inject(DELIVERY_QUEUE) private readonly queue?: DeliveryQueue,
  ) {}

  onModuleInit(): void {
    if (!this.config.url || !this.queue) return;
    const kept = this.queue.durable
      ? 'queued in Redis'
      : 'queued in memory (REDIS_URL unset: waiting deliveries do not survive a restart)';
    this.logger.log(
      `Outcomes are posted to ${redactUrl(this.config.url)}, ${kept}, ${this.config.maxAttempts} attempts at most`,
    );
  }

  async deliver(outcome: TransactionOutcome): Promise<void> {
    await this.queue?.enqueue(toDelivery(outcome));
  }
}
