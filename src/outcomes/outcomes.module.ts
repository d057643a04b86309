import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { RedisClient } from '../telemetry/redis/redis.provider';
import { ENV } from '../config/env';
import { TransactionAnswerListener } from '../kit/transaction-answer.listener';
import { FollowerModule } from '../follower/follower.module';
import { REDIS, RedisStatus } from '../telemetry/redis/redis.provider';
import { BlockMatcher } from './block-matcher';
import { Finality } from './finality';
import { OutboxRelay } from './outbox-relay';
import { Receipts } from './receipts';
import { IntentReports } from './intent-reports';
import { HashLookup } from './hash-lookup';
import { IntentRecorder } from './intent-recorder';
import { INTENT_STORE, type IntentStore } from './intent-store';
import { IntentsService } from './intents.service';
import { MemoryIntentStore } from './memory-intent.store';
import { OutcomeHooks } from './outcome-hooks';
import { OutcomeMetrics } from './outcome-metrics';
import { OutcomeWatcher } from './outcome-watcher';
import { loadOutcomesConfig, OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';
import { RedisIntentStore } from './redis-intent.store';
import { ResilientIntentStore } from './resilient-intent.store';
import { TransactionsController } from './transactions.controller';

/**
 * Transaction outcomes (docs/transaction-outcomes.md): every transaction answer recorded as an
 * intent, settled by what the chain follower sees (no report needed), the report and read
 * routes, the expiry watcher, and the teams' hooks. Registered by CoreModule after the kit;
 * global so an action module's hook provider and a webhooks module's OutcomeSink need no import.
 */
@Global()
@Module({
  imports: [DiscoveryModule, FollowerModule],
  controllers: [TransactionsController],
  providers: [
    { provide: OUTCOMES_CONFIG, useFactory: loadOutcomesConfig, inject: [ENV] },
    {
      provide: INTENT_STORE,
      inject: [OUTCOMES_CONFIG, REDIS, RedisStatus],
      // A settled (or expired) intent stays readable as long again as it could wait.
      useFactory: (
        config: OutcomesConfig,
        redis: RedisClient | null,
        status: RedisStatus,
      ): IntentStore =>
        redis
          ? new ResilientIntentStore(new RedisIntentStore(redis, config.ttlMs * 2), status)
          : new MemoryIntentStore(config.memoryMax, config.ttlMs * 2),
    },
    HashLookup,
    IntentsService,
    IntentReports,
    BlockMatcher,
    Finality,
    Receipts,
    OutcomeHooks,
    OutboxRelay,
    OutcomeMetrics,
    OutcomeWatcher,
    // The kit's envelope interceptor tells it of every transaction answer (no interceptor of its own).
    { provide: TransactionAnswerListener, useClass: IntentRecorder },
  ],
  exports: [OUTCOMES_CONFIG, INTENT_STORE, IntentsService, TransactionAnswerListener],
})
export class OutcomesModule {}
