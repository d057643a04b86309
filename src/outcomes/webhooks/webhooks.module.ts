import type * as NestBullMq from '@nestjs/bullmq';
import type { ConnectionOptions } from 'bullmq';
import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import type { AppConfig } from '../../config/app.config';
import type { Env } from '../../config/env';
import type { ActionDeclaration } from '../../contract/action.types';
import { OUTCOME_SINK } from '../outcome.types';
import { ACTION_WEBHOOKS, actionWebhooks } from './action-webhooks';
import type * as BullDelivery from './bullmq-delivery.queue';
import { MemoryDeliveryQueue } from './memory-delivery.queue';
import { DELIVERY_QUEUE } from './webhook-delivery';
import { WebhookDispatcher } from './webhook.dispatcher';
import { WebhookMetrics } from './webhook.metrics';
import { WebhookSender } from './webhook.sender';
import { loadWebhooksConfig, WEBHOOKS_CONFIG } from './webhooks.config';
import { queueConnectionOf } from '../../telemetry/redis/redis-clients';
import { QUEUE_CONNECTION } from './webhook-delivery';

/**
 * Signed webhooks of settled outcomes (docs/webhooks.md), bound to OUTCOME_SINK: the service-wide
 * one (WEBHOOK_URL) and the actions' own (`webhook` in a declaration, its target read here from
 * `env`). The queue is chosen at composition from the configuration: BullMQ on REDIS_URL's Redis
 * (its own connections, keys under REDIS_KEY_PREFIX + WEBHOOK_QUEUE_PREFIX), else memory; with no
 * receiver at all, none. Global, so the outcomes module finds OUTCOME_SINK wherever it is composed.
 */
@Module({})
export class WebhooksModule {
  /** `actions`: the declarations of the actions served, whose own webhooks are read here. */
  static forRoot(
    app: AppConfig,
    env: Env,
    actions: readonly ActionDeclaration[] = [],
  ): DynamicModule {
    const config = loadWebhooksConfig(env);
    const targets = actionWebhooks(actions, env);
    const wanted = config.url !== undefined || targets.size > 0;
    const queue = !wanted ? 'none' : app.redis ? 'redis' : 'memory';
    const redis = queue === 'redis' ? redisQueue(app) : { imports: [], providers: [] };
    const queueProviders: Provider[] =
      queue === 'memory'
        ? [MemoryDeliveryQueue, { provide: DELIVERY_QUEUE, useExisting: MemoryDeliveryQueue }]
        : redis.providers;
    const imports = redis.imports;
    return {
      module: WebhooksModule,
      global: true,
      imports,
      providers: [
        { provide: WEBHOOKS_CONFIG, useValue: config },
        { provide: ACTION_WEBHOOKS, useValue: targets },
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

/**
 * BullMQ on REDIS_URL's Redis. Required here, not imported at the top: BullMQ and its Nest module
 * take about 150 ms of every boot to load, and only a service with webhooks and Redis needs them.
 */
function redisQueue(app: AppConfig): { imports: DynamicModule[]; providers: Provider[] } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { BullModule } = require('@nestjs/bullmq') as typeof NestBullMq;
  const { BullDeliveryQueue, WEBHOOK_QUEUE, WEBHOOK_QUEUE_PREFIX, WebhookProcessor } =
    require('./bullmq-delivery.queue') as typeof BullDelivery;
  const ioredis = require('ioredis') as typeof import('ioredis');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // Blocking worker connections wait for Redis through an outage rather than fail.
  const connection = queueConnectionOf(ioredis, app.redis!);
  return {
    imports: [
      BullModule.forRoot(WEBHOOK_QUEUE, {
        connection: connection as ConnectionOptions,
        // A hash tag: every key of the queue in one slot, as BullMQ's scripts need on a cluster.
        prefix: `${app.redisKeyPrefix}${WEBHOOK_QUEUE_PREFIX}`,
      }),
      BullModule.registerQueue({ name: WEBHOOK_QUEUE, configKey: WEBHOOK_QUEUE }),
    ],
    providers: [
      { provide: QUEUE_CONNECTION, useValue: connection },
      BullDeliveryQueue,
      WebhookProcessor,
      { provide: DELIVERY_QUEUE, useExisting: BullDeliveryQueue },
    ],
  };
}
