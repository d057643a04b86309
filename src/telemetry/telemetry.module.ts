import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ENV, type Env } from '../config/env';
import { loadObservabilityConfig, OBSERVABILITY_CONFIG } from '../config/observability.config';
import { loggingProviders, pinoLoggerModule, ROOT_LOGGER } from './logging/logging.providers';
import { LOG_DESTINATION } from './logging/root-logger';
import { ActionMetrics } from './metrics/action-metrics';
import { MetricsServer } from './metrics/metrics.server';
import { REDIS, redisProvider, RedisStatus } from './redis/redis.provider';
import { TracingLifecycle } from './tracing/tracing.lifecycle';

/**
 * Logs (pino, through nestjs-pino's global LoggerModule), metrics (Prometheus, on METRICS_PORT)
 * and traces, and the shared Redis client whose state the metrics and readiness report. Global:
 * every layer above logs and counts.
 */
@Global()
@Module({})
export class TelemetryModule {
  /** At boot, once every module is loaded (see pinoLoggerModule). */
  static forRoot(): DynamicModule {
    return {
      module: TelemetryModule,
      imports: [pinoLoggerModule()],
      providers: [
        {
          provide: OBSERVABILITY_CONFIG,
          useFactory: (vars: Env, config: AppConfig) =>
            loadObservabilityConfig(vars, config.port, config.host),
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
        REDIS,
        RedisStatus,
        ActionMetrics,
        MetricsServer,
      ],
    };
  }
}
