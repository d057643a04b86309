import { Global, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { OpenApiExtension } from '../publishing/openapi/openapi-extension';
import { BlinkCatalogue } from './blink-catalogue';
import { BlinkDispatch } from './blink-dispatch';
import { blinkRouteHooks } from './blink-hooks';
import { BlinkOpenApi } from './blink-openapi';
import { BlinksController } from './blinks.controller';

/**
 * Every action as a blink (docs/blinks.md): the documents, the POSTs run through the actions'
 * own routes, and the spec's headers, CORS and error shape on the blink routes only.
 */
@Global()
@Module({
  controllers: [BlinksController],
  providers: [BlinkCatalogue, BlinkDispatch, { provide: OpenApiExtension, useClass: BlinkOpenApi }],
  // Global for OpenApiDocument (src/publishing), which documents the blinks' routes through it.
  exports: [BlinkCatalogue, OpenApiExtension],
})
export class BlinksModule {
  /**
   * What the blinks add to the HTTP server, called by setupApp before the routes are registered
   * (as KitModule.setup is): their hooks, on their own routes (blink-hooks.ts).
   */
  static setup(app: NestFastifyApplication): void {
    const hooks = blinkRouteHooks(app.get(BlinkCatalogue));
    app.getHttpAdapter().getInstance().addHook('onRoute', hooks);
  }
}
