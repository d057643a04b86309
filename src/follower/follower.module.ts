import { Module } from '@nestjs/common';
import { ENV } from '../config/env';
import { isCluster, REDIS, type RedisClient } from '../telemetry/redis/redis.provider';
import { ChainFollower } from './chain-follower';
import { FOLLOWER_CONFIG, loadFollowerConfig } from './follower.config';
import { FollowerMetrics } from './follower.metrics';
import { FOLLOWER_STATE, type FollowerState, MemoryFollowerState } from './follower-state';
import { RedisFollowerState } from './redis-follower.state';

/**
 * The chain follower (docs/transaction-outcomes.md): one per process, following every served
 * chain while it holds the chain's lease. Imported by OutcomesModule, its one subscriber.
 */
@Module({
  providers: [
    { provide: FOLLOWER_CONFIG, useFactory: loadFollowerConfig, inject: [ENV] },
    {
      provide: FOLLOWER_STATE,
      inject: [REDIS],
      useFactory: (redis: RedisClient | null): FollowerState =>
        redis ? new RedisFollowerState(redis, !isCluster(redis)) : new MemoryFollowerState(),
    },
    FollowerMetrics,
    ChainFollower,
  ],
  exports: [ChainFollower, FOLLOWER_CONFIG],
})
export class FollowerModule {}
