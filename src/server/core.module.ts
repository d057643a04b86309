import { type DynamicModule, Global, Module, type Type } from '@nestjs/common';
import { AppConfigModule } from '../config/app-config.module';
import type { AppConfig } from '../config/app.config';
import type { Env } from '../config/env';
import type { MiniAppDeclaration } from '../contract/mini-app.types';
import { AuthModule } from '../auth/auth.module';
import { KitModule } from '../kit/kit.module';
import { PaymentsModule } from '../payments/payments.module';
import { OutboundModule } from '../outbound/outbound.module';
import { declarationsOf } from '../outcomes/webhooks/action-webhooks';
import { WebhooksModule } from '../outcomes/webhooks/webhooks.module';
import { OutcomesModule } from '../outcomes/outcomes.module';
import { PublishingModule } from '../publishing/publishing.module';
import { BlinksModule } from '../blinks/blinks.module';
import { McpModule } from '../mcp/mcp.module';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { MethodNotAllowedRoutes } from './edge/method-not-allowed';
import { HealthController } from './health.controller';
import { RequestObserver } from './request-observer';

/**
 * Everything an action runs on, composed bottom to top (see README, Layout): configuration,
 * telemetry, the result cache, the kit (chains, registry, guards, interceptor, filter), verified
 * users (sign-in and sessions), paid actions (x402), the transaction outcomes (intents, their
 * watcher, hooks and webhooks), publishing, the blinks, the MCP endpoint, then the
 * server's own health, route and request observation.
 */
@Global()
@Module({})
export class CoreModule {
  /**
   * `miniApps`: the registered mini-apps; null registers those the served actions name.
   * `actions`: the action modules served, whose own webhooks the webhooks module reads.
   */
  static forRoot(
    config: AppConfig,
    env: Env,
    miniApps: readonly MiniAppDeclaration[] | null = null,
    actions: readonly Type[] = [],
  ): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        AppConfigModule.forRoot(config, env),
        TelemetryModule.forRoot(),
        OutboundModule,
        KitModule.forRoot(miniApps),
        AuthModule,
        PaymentsModule,
        WebhooksModule.forRoot(config, env, declarationsOf(actions)),
        OutcomesModule,
        PublishingModule,
        BlinksModule.forRoot(env),
        McpModule.forRoot(env),
      ],
      controllers: [HealthController],
      providers: [RequestObserver, MethodNotAllowedRoutes],
      exports: [RequestObserver, MethodNotAllowedRoutes],
    };
  }
}
