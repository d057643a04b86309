import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BlinkCatalogue } from './blink-catalogue';
import { BlinkDispatch } from './blink-dispatch';
import { BlinkOpenApi } from './blink-openapi';
import { OpenApiExtension } from '../publishing/openapi/openapi-extension';
import { ACTION_VERSION, BLINK_EXPOSED_HEADERS, isBlinkRoute } from './blink-headers';
import { BlinksController } from './blinks.controller';

/**
 * Every action as a blink (docs/blinks.md): the documents, the POSTs run through the actions'
 * own routes, and on every answer of a blink route (refusals and parse errors too) the spec's
 * X-Action-Version and X-Blockchain-Ids, set as the request is routed, and exposed to pages.
 */
@Global()
@Module({
  controllers: [BlinksController],
  providers: [BlinkCatalogue, BlinkDispatch, { provide: OpenApiExtension, useClass: BlinkOpenApi }],
  // Global for OpenApiDocument (src/publishing), which documents the blinks' routes through it.
  exports: [BlinkCatalogue, OpenApiExtension],
})
export class BlinksModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly catalogue: BlinkCatalogue,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    const every = this.catalogue.blockchainIds().join(',');
    fastify.addHook('onRequest', (req, reply, done) => {
      if (isBlinkRoute(req)) {
        void reply.header('X-Action-Version', ACTION_VERSION);
        void reply.header('X-Blockchain-Ids', this.blockchainIds(req) ?? every);
        // After the CORS hook, which has set the service's list: the spec's two join it.
        const exposed = reply.getHeader('access-control-expose-headers');
        const list = [...(typeof exposed === 'string' ? [exposed] : []), ...BLINK_EXPOSED_HEADERS];
        void reply.header('access-control-expose-headers', list.join(', '));
      }
      done();
    });
    // Errors raised before the handler (a body that is not JSON, one too large) are rendered by
    // the service's filter: on a blink route they too leave in the spec's shape, `{message}`.
    fastify.addHook('onSend', (req, reply, payload, done) => {
      if (reply.statusCode < 400 || typeof payload !== 'string' || !isBlinkRoute(req)) {
        return done(null, payload);
      }
      done(null, JSON.stringify({ message: messageOf(payload) }));
    });
  }

  /** The chains of the blink a request names, when it names one. */
  private blockchainIds(req: FastifyRequest): string | undefined {
    const { name } = (req.params ?? {}) as { name?: string };
    return name === undefined ? undefined : this.catalogue.find(name)?.blockchainIds.join(',');
  }
}

/** The words of an error answer in either of the service's shapes. */
function messageOf(payload: string): string {
  try {
    const { message, error } = JSON.parse(payload) as { message?: unknown; error?: unknown };
    if (typeof message === 'string') return message;
    if (typeof error === 'string') return error;
  } catch {
    // Not JSON: said in general terms below.
  }
  return 'The request failed';
}
