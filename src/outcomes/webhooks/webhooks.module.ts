import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import type { AppConfig } from '../../config/app.config';
import type { Env } from '../../config/env';
import { OUTCOME_SINK } from '../outcome.types';
import { BullDeliveryQueue, WEBHOOK_QUEUE, WebhookProcessor } from './bullmq-delivery.queue';
import { MemoryDeliveryQueue } from './memory-delivery.queue';
import { DELIVERY_QUEUE } from './webhook-delivery';
import { WebhookDispatcher } from './webhook.dispatcher';
import { WebhookMetrics } from './webhook.metrics';
import { WebhookSender } from './webhook.sender';
import { loadWebhooksConfig, WEBHOOKS_CONFIG } from './webhooks.config';

/**
 * Signed webhooks of settled outcomes (docs/webhooks.md), bound to OUTCOME_SINK. The queue is
 * chosen at composition from the configuration: BullMQ on REDIS_URL's Redis (its own connections,
 * keys under REDIS_KEY_PREFIX + `bull`), else memory; without WEBHOOK_URL, none. Global, so the
 * outcomes module finds OUTCOME_SINK wherever it is composed.
 */
@Module({})
export class WebhooksModule {
  static forRoot(app: AppConfig, env: Env): DynamicModule {
    const config = loadWebhooksConfig(env);
    const queue = !config.url ? 'none' : app.redisUrl ? 'redis' : 'memory';
    const imports =
      queue === 'redis'
        ? [
            BullModule.forRoot(WEBHOOK_QUEUE, {
              // Blocking worker connections wait for Redis through an outage rather than fail.
              connection: { url: app.redisUrl, maxRetriesPerRequest: null },
              prefix: `${app.redisKeyPrefix}bull`,
            }),
            BullModule.registerQueue({ name: WEBHOOK_QUEUE, configKey: WEBHOOK_QUEUE }),
          ]
        : [];
    const queueProviders: Provider[] =
      queue === 'redis'
        ? [
            BullDeliveryQueue,
            WebhookProcessor,
            { provide: DELIVERY_QUEUE, useExisting: BullDeliveryQueue },
          ]
        : queue === 'memory'
          ? [MemoryDeliveryQueue, { provide: DELIVERY_QUEUE, useExisting: MemoryDeliveryQueue }]
          : [];
    return {
      module: WebhooksModule,
      global: true,
      imports,
      providers: [
        { provide: WEBHOOKS_CONFIG, useValue: config },
        WebhookMetrics,
        WebhookSender,
        ...queueProviders,
        WebhookDispatcher,
        { provide: OUTCOME_SINK, useExisting: WebhookDispatcher },
      ],
      exports: [WebhookDispatcher, OUTCOME_SINK],
    };
  }
}
