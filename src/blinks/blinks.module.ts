import { type DynamicModule, Inject, Logger, Module, type OnModuleInit } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import type { Env } from '../config/env';
import { BlinkCatalogue } from './blink-catalogue';
import { BlinkDispatch } from './blink-dispatch';
import { blinkRouteHooks } from './blink-hooks';
import { BlinkOpenApi } from './blink-openapi';
import { blinkOrigins } from './blink-origins';
import { BlinkSeals } from './blink-seals';
import { BlinkSignInController } from './blink-sign-in.controller';
import {
  BLINKS_CONFIG,
  type BlinksConfig,
  blinkOriginsNotice,
  loadBlinksConfig,
} from './blinks.config';
import { BlinksController } from './blinks.controller';
import { BlinksOffController } from './blinks-off.controller';

/**
 * Every action as a blink (docs/blinks.md): the documents, the POSTs run through the actions'
 * own routes, and the spec's headers, CORS and error shape on the blink routes only. With
 * BLINKS=off, none of it: only an empty `actions.json` (blinks-off.controller.ts).
 */
@Module({})
export class BlinksModule implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly app: AppConfig,
    @Inject(BLINKS_CONFIG) private readonly blinks: BlinksConfig,
  ) {}

  static forRoot(env: Env): DynamicModule {
    const blinks = loadBlinksConfig(env);
    const config = { provide: BLINKS_CONFIG, useValue: blinks };
    if (!blinks.enabled) {
      return {
        module: BlinksModule,
        global: true,
        controllers: [BlinksOffController],
        providers: [config],
        exports: [BLINKS_CONFIG],
      };
    }
    return {
      module: BlinksModule,
      // Global for the layers above that link to the blinks only when they are on (BLINKS_CONFIG).
      global: true,
      controllers: [BlinksController, BlinkSignInController],
      providers: [
        config,
        BlinkCatalogue,
        BlinkDispatch,
        BlinkSeals,
        // Found by OpenApiDocument's discovery (src/publishing): the blinks' routes documented.
        BlinkOpenApi,
      ],
      exports: [BLINKS_CONFIG, BlinkCatalogue],
    };
  }

  /**
   * What the blinks add to the HTTP server, called by setupApp before the routes are registered
   * (as KitModule.setup is): their hooks, on their own routes (blink-hooks.ts); nothing when off.
   */
  static setup(app: NestFastifyApplication): void {
    const blinks = app.get<BlinksConfig>(BLINKS_CONFIG);
    if (!blinks.enabled) return;
    const origins = blinkOrigins(app.get<AppConfig>(APP_CONFIG), blinks);
    const hooks = blinkRouteHooks(app.get(BlinkCatalogue), origins);
    app.getHttpAdapter().getInstance().addHook('onRoute', hooks);
  }

  /** What an operator must read at boot: one line each, at `warn`. */
  onModuleInit(): void {
    if (!this.blinks.enabled) return;
    const logger = new Logger('Blinks');
    const notice = blinkOriginsNotice(this.app, this.blinks);
    if (notice !== undefined) logger.warn(notice);
    if (this.app.nodeEnv === 'production' && this.app.publicBaseUrl === undefined) {
      logger.warn(
        'PUBLIC_BASE_URL is not set: blink icons that would be built on the request’s Host are left out (set PUBLIC_BASE_URL)',
      );
    }
  }
}
