import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { CACHE_CONFIG, loadCacheConfig } from '../config/cache.config';
import { ENV, type Env } from '../config/env';
import { CacheStore, MemoryCacheStore } from './cache/cache.store';
import { ResultCache } from './cache/result-cache';
import { ActionExceptionFilter } from './action-exception.filter';
import { ActionRegistry } from './action.registry';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { HealthController } from './health.controller';
import { MetadataController } from './metadata.controller';
import { UserContextGuard } from './user-context.guard';

/** The contract kit: every cross-cutting piece is registered here, once, for every action. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, env: Env): DynamicModule {
    return {
      module: CoreModule,
      imports: [DiscoveryModule],
      controllers: [HealthController, MetadataController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: ENV, useValue: env },
        ActionRegistry,
        { provide: CACHE_CONFIG, useFactory: loadCacheConfig, inject: [ENV] },
        { provide: CacheStore, useClass: MemoryCacheStore },
        ResultCache,
        { provide: APP_GUARD, useClass: UserContextGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: ActionExceptionFilter },
      ],
      exports: [APP_CONFIG, ENV, ActionRegistry, ResultCache],
    };
  }
}
