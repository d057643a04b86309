import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { ChainsModule } from '../chains/chains.module';
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
import { ActionExceptionFilter } from './action-exception.filter';
import { ActionRegistry } from './action.registry';
import { CacheStore } from './cache/cache.store';
import { ChainGuard } from './chain.guard';
import { createCacheStore } from './cache/cache-store.factory';
import { ResultCache } from './cache/result-cache';
import { MethodNotAllowedRoutes } from './edge/method-not-allowed';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { HealthController } from './health.controller';
import { loggingProviders, ROOT_LOGGER } from './logging/logging.providers';
import { MetadataController } from './metadata.controller';
import { REGISTERED_MINI_APPS } from './mini-app';
import { MiniAppDocuments } from './mini-app-documents';
import { MiniAppIcons } from './mini-app-icons';
import { MiniAppIconsController } from './mini-app-icons.controller';
import type { MiniAppDeclaration } from './mini-app.types';
import { ActionMetrics } from './metrics/action-metrics';
import { MetricsServer } from './metrics/metrics.server';
import { RequestObserver } from './observability/request-observer';
import { OpenApiController } from './openapi/openapi.controller';
import { OpenApiDocument } from './openapi/openapi.document';
import { OriginGuard } from './origin.guard';
import { REDIS, redisProvider, RedisStatus } from './redis/redis.provider';
import { ActionThrottlerGuard } from './throttling/action-throttler.guard';
import { createThrottlerStorage, THROTTLER_STORE } from './throttling/throttler-storage.factory';
import { throttlerOptions } from './throttling/throttling.options';
import { TracingLifecycle } from './tracing/tracing.lifecycle';
import { UserContextGuard } from './user-context.guard';
import { UploadBodyGuard } from './uploads/upload-body.guard';

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
