import { Global, Module } from '@nestjs/common';
import { PARAMS_PROVIDER_TOKEN, PinoLogger, Logger as PinoNestLogger } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ENV, type Env } from '../config/env';
import { loadObservabilityConfig, OBSERVABILITY_CONFIG } from '../config/observability.config';
import { loggingProviders, ROOT_LOGGER } from './logging/logging.providers';
import { LOG_DESTINATION } from './logging/root-logger';
import { ActionMetrics } from './metrics/action-metrics';
import { MetricsServer } from './metrics/metrics.server';
import { REDIS, redisProvider, RedisStatus } from './redis/redis.provider';
import { TracingLifecycle } from './tracing/tracing.lifecycle';

/**
 * Logs (pino), metrics (Prometheus, on METRICS_PORT) and traces, and the shared Redis client
 * whose state the metrics and readiness report. Global: every layer above logs and counts.
 */
@Global()
@Module({
  providers: [
    {
      provide: OBSERVABILITY_CONFIG,
      useFactory: (vars: Env, config: AppConfig) => loadObservabilityConfig(vars, config.port),
      inject: [ENV, APP_CONFIG],
    },
    ...loggingProviders,
    redisProvider,
    RedisStatus,
    ActionMetrics,
    MetricsServer,
    TracingLifecycle,
  ],
  exports: [
    OBSERVABILITY_CONFIG,
    LOG_DESTINATION,
    ROOT_LOGGER,
    PARAMS_PROVIDER_TOKEN,
    PinoLogger,
    PinoNestLogger,
    REDIS,
    RedisStatus,
    ActionMetrics,
    MetricsServer,
  ],
})
export class TelemetryModule {}
