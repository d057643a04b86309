import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { ChainsModule } from '../evm/chains/chains.module';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { CACHE_CONFIG, type CacheConfig, loadCacheConfig } from '../config/cache.config';
import { ENV, type Env } from '../config/env';
import { loadUploadConfig, UPLOAD_CONFIG } from '../config/upload.config';
import { loadMiniAppsConfig, MINI_APPS_CONFIG } from '../config/mini-apps.config';
import { loadObservabilityConfig, OBSERVABILITY_CONFIG } from '../config/observability.config';
import {
  loadThrottleConfig,
  THROTTLE_CONFIG,
  type ThrottleConfig,
} from '../config/throttle.config';
import { ActionExceptionFilter } from '../kit/action-exception.filter';
import { ActionRegistry } from '../kit/action.registry';
import { CacheStore } from '../outbound/cache/cache.store';
import { ChainGuard } from '../kit/chain.guard';
import { createCacheStore } from '../outbound/cache/cache-store.factory';
import { ResultCache } from '../outbound/cache/result-cache';
import { MethodNotAllowedRoutes } from './edge/method-not-allowed';
import { EnvelopeInterceptor } from '../kit/envelope.interceptor';
import { HealthController } from './health.controller';
import { loggingProviders, ROOT_LOGGER } from '../telemetry/logging/logging.providers';
import { MetadataController } from '../publishing/metadata.controller';
import { REGISTERED_MINI_APPS } from '../kit/mini-app';
import { MiniAppDocuments } from '../publishing/mini-app-documents';
import { MiniAppIcons } from '../kit/mini-app-icons';
import { MiniAppIconsController } from '../publishing/mini-app-icons.controller';
import type { MiniAppDeclaration } from '../contract/mini-app.types';
import { ActionMetrics } from '../telemetry/metrics/action-metrics';
import { MetricsServer } from '../telemetry/metrics/metrics.server';
import { RequestObserver } from './request-observer';
import { OpenApiController } from '../publishing/openapi/openapi.controller';
import { OpenApiDocument } from '../publishing/openapi/openapi.document';
import { OriginGuard } from '../kit/origin.guard';
import { REDIS, redisProvider, RedisStatus } from '../telemetry/redis/redis.provider';
import { ActionThrottlerGuard } from '../kit/throttling/action-throttler.guard';
import { createThrottlerStorage, THROTTLER_STORE } from '../kit/throttling/throttler-storage.factory';
import { throttlerOptions } from '../kit/throttling/throttling.options';
import { TracingLifecycle } from '../telemetry/tracing/tracing.lifecycle';
import { UserContextGuard } from '../kit/user-context.guard';
import { UploadBodyGuard } from '../kit/uploads/upload-body.guard';

/**
 * The contract kit: every cross-cutting piece is registered here, once, for every action.
 * Guards run in the order listed: origin (403), rate limits (429), reading a multipart body (413),
 * the request's shape (400), then its chains (400 UNSUPPORTED_CHAIN).
 */
@Global()
@Module({})
export class CoreModule {
  /** `miniApps`: the registered mini-apps; null registers those the served actions name. */
  static forRoot(
    config: AppConfig,
    env: Env,
    miniApps: readonly MiniAppDeclaration[] | null = null,
  ): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        DiscoveryModule,
        ChainsModule,
        ThrottlerModule.forRootAsync({
          inject: [THROTTLE_CONFIG, THROTTLER_STORE],
          useFactory: throttlerOptions,
        }),
      ],
      controllers: [
        HealthController,
        MetadataController,
        MiniAppIconsController,
        OpenApiController,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: ENV, useValue: env },
        { provide: THROTTLE_CONFIG, useFactory: loadThrottleConfig, inject: [ENV] },
        { provide: CACHE_CONFIG, useFactory: loadCacheConfig, inject: [ENV] },
        {
          provide: UPLOAD_CONFIG,
          useFactory: (vars: Env) => loadUploadConfig(vars, config.bodyLimitBytes),
          inject: [ENV],
        },
        {
          provide: OBSERVABILITY_CONFIG,
          useFactory: (vars: Env) => loadObservabilityConfig(vars, config.port),
          inject: [ENV],
        },
        ...loggingProviders,
        redisProvider,
        RedisStatus,
        ActionMetrics,
        MetricsServer,
        RequestObserver,
        TracingLifecycle,
        {
          provide: THROTTLER_STORE,
          inject: [THROTTLE_CONFIG, REDIS],
          useFactory: (throttle: ThrottleConfig, redis: Redis | null): ThrottlerStorage =>
            createThrottlerStorage(throttle, redis),
        },
        {
          provide: CacheStore,
          inject: [CACHE_CONFIG, REDIS],
          useFactory: (cache: CacheConfig, redis: Redis | null): CacheStore =>
            createCacheStore(cache, redis),
        },
        ResultCache,
        { provide: REGISTERED_MINI_APPS, useValue: miniApps },
        { provide: MINI_APPS_CONFIG, useFactory: loadMiniAppsConfig, inject: [ENV] },
        MiniAppIcons,
        ActionRegistry,
        MiniAppDocuments,
        OpenApiDocument,
        MethodNotAllowedRoutes,
        { provide: APP_GUARD, useClass: OriginGuard },
        { provide: APP_GUARD, useClass: ActionThrottlerGuard },
        { provide: APP_GUARD, useClass: UploadBodyGuard },
        { provide: APP_GUARD, useClass: UserContextGuard },
        { provide: APP_GUARD, useClass: ChainGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: ActionExceptionFilter },
      ],
      exports: [
        APP_CONFIG,
        ENV,
        THROTTLE_CONFIG,
        THROTTLER_STORE,
        UPLOAD_CONFIG,
        REDIS,
        ActionRegistry,
        MiniAppDocuments,
        ResultCache,
        ROOT_LOGGER,
        OBSERVABILITY_CONFIG,
        ActionMetrics,
      ],
    };
  }
}
