import { type DynamicModule, Global, Module, type OnModuleInit } from '@nestjs/common';
import {
  APP_FILTER,
  APP_GUARD,
  APP_INTERCEPTOR,
  DiscoveryModule,
  HttpAdapterHost,
} from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, preParsingHookHandler } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import type { RedisClient } from '../telemetry/redis/redis.provider';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ENV, type Env } from '../config/env';
import { loadMiniAppsConfig, MINI_APPS_CONFIG } from '../config/mini-apps.config';
import {
  loadThrottleConfig,
  THROTTLE_CONFIG,
  type ThrottleConfig,
} from '../config/throttle.config';
import { loadUploadConfig, UPLOAD_CONFIG, type UploadConfig } from '../config/upload.config';
import type { MiniAppDeclaration } from '../contract/mini-app.types';
import type { ActionDeclaration } from '../contract/action.types';
import { ChainsModule } from '../evm/chains/chains.module';
import { REDIS, RedisStatus } from '../telemetry/redis/redis.provider';
import { ACTION_CALL_PROPERTY } from './action-call';
import { ActionExceptionFilter } from './action-exception.filter';
import { ActionRegistry } from './action.registry';
import { ChainGuard } from './chain.guard';
import { EnvelopeInterceptor } from './envelope.interceptor';
import { REGISTERED_MINI_APPS } from './mini-app';
import { MiniAppIcons } from './mini-app-icons';
import { originAllowed, OriginGuard } from './origin.guard';
import { InProcessCalls } from './in-process-call';
import { ActionThrottlerGuard } from './action-throttler.guard';
import { createThrottlerStorage, THROTTLER_STORE } from './throttling/throttler-storage.factory';
import { throttlerOptions } from './throttling/throttling.options';
import { UploadBodyGuard } from './upload-body.guard';
import { closeUnlessUploadRead, isUpload, registerMultipart } from './uploads/multipart.setup';
import { UploadAdmission } from './uploads/upload-admission';
import { relabelMultipart } from './uploads/mislabelled-multipart';
import { isUploadType } from './uploads/uploaded-file';
import { getDeclaredParams } from './action-param.decorator';
import { UserContextGuard } from './user-context.guard';
import { checkSession, SessionVerifier } from './verified-user';

/** The rest of the `preParsing` hook, once the session is checked. */
type EarlyStep = (
  declaration: ActionDeclaration,
  ...hook: Parameters<preParsingHookHandler>
) => void;

/** A provider a layer above may bind (src/auth's SessionVerifier); undefined when none does. */
function optional<T>(
  app: NestFastifyApplication,
  token: abstract new (...args: never[]) => T,
): T | undefined {
  try {
    return app.get(token, { strict: false });
  } catch {
    return undefined;
  }
}

const declaresUploads = (declaration: ActionDeclaration): boolean =>
  getDeclaredParams(declaration.params).some((param) => isUploadType(param.type));

/**
 * The action kit, registered once for every action: the registry of declared actions and
 * mini-apps, and the request pipeline: the guards below run in the order listed, then the
 * handler, the interceptor and, for every error, the filter. The steps share one ActionCall per
 * request; action-call.ts writes their order down, with what each refuses.
 */
@Global()
@Module({})
export class KitModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /**
   * What the kit adds to the HTTP server, called by setupApp (as SwaggerModule.setup is) once the
   * JSON parser is in place: multipart bodies are only marked, left for UploadBodyGuard to read.
   * Returns the body cap of a request that is an upload, judged by its head; undefined otherwise.
   */
  static setup(app: NestFastifyApplication): (req: IncomingMessage) => number | undefined {
    const uploads = app.get<UploadConfig>(UPLOAD_CONFIG);
    const fastify = app.getHttpAdapter().getInstance();
    registerMultipart(fastify, uploads);
    // The IP limit is counted before any body is parsed (the refusal still comes in guard order).
    const limiter = app.get(ActionThrottlerGuard);
    const appConfig = app.get<AppConfig>(APP_CONFIG);
    const origins = new Set(appConfig.allowedOrigins);
    const registry = app.get(ActionRegistry);
    const inProcess = app.get(InProcessCalls);
    // With callbacks, not async: an in-memory count and most requests make no promise here.
    const uploading = new WeakMap<ActionDeclaration, boolean>();
    const sessions = optional(app, SessionVerifier);
    fastify.addHook('preParsing', (req, reply, payload, done) => {
      const declaration = req.method === 'POST' ? registry.find(req.routeOptions.url) : undefined;
      if (!declaration) return done(null, payload);
      // The session token first: a verified user is who the user limit counts.
      const session = checkSession(req, sessions);
      if (session) return void session.then(() => early(declaration, req, reply, payload, done));
      early(declaration, req, reply, payload, done);
    });
    const early: EarlyStep = (declaration, req, reply, payload, done) => {
      // A refused origin is answered 403 by its guard, before any limit counts it.
      const counting =
        originAllowed(appConfig, req.headers.origin, origins) || inProcess.is(req)
          ? limiter.countBeforeBody(req, declaration)
          : undefined;
      let uploads = uploading.get(declaration);
      if (uploads === undefined)
        uploading.set(declaration, (uploads = declaresUploads(declaration)));
      // The rest waits for the next turn of the event loop (as it does when a store answers over
      // the network): the requests of one turn then go through each later step together, with
      // that step's code hot, rather than each through every step in turn (measured in
      // docs/performance.md, "What was tuned").
      if (!counting && !uploads) return void setImmediate(done, null, payload);
      const relabel = async (): Promise<void> => {
        await counting;
        if (!uploads) return;
        await relabelMultipart(req, payload);
        closeUnlessUploadRead(req.raw, reply.raw);
      };
      relabel().then(() => done(null, payload), done);
    };
    return (req) => (isUpload(req) ? uploads.maxBytes : undefined);
  }

  /** Every request is born with the property that carries its ActionCall (see action-call.ts). */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (fastify && !fastify.hasRequestDecorator(ACTION_CALL_PROPERTY)) {
      fastify.decorateRequest(ACTION_CALL_PROPERTY, null);
    }
  }

  /** `miniApps`: the registered mini-apps; null registers those the served actions name. */
  static forRoot(miniApps: readonly MiniAppDeclaration[] | null = null): DynamicModule {
    return {
      module: KitModule,
      imports: [
        DiscoveryModule,
        ChainsModule,
        ThrottlerModule.forRootAsync({
          inject: [THROTTLE_CONFIG, THROTTLER_STORE],
          useFactory: throttlerOptions,
        }),
      ],
      providers: [
        { provide: THROTTLE_CONFIG, useFactory: loadThrottleConfig, inject: [ENV] },
        {
          provide: UPLOAD_CONFIG,
          useFactory: (vars: Env, config: AppConfig) =>
            loadUploadConfig(vars, config.bodyLimitBytes),
          inject: [ENV, APP_CONFIG],
        },
        {
          provide: THROTTLER_STORE,
          inject: [THROTTLE_CONFIG, REDIS, RedisStatus],
          useFactory: (
            throttle: ThrottleConfig,
            redis: RedisClient | null,
            status: RedisStatus,
          ): ThrottlerStorage => createThrottlerStorage(throttle, redis, status),
        },
        { provide: REGISTERED_MINI_APPS, useValue: miniApps },
        { provide: MINI_APPS_CONFIG, useFactory: loadMiniAppsConfig, inject: [ENV] },
        MiniAppIcons,
        ActionRegistry,
        UploadAdmission,
        InProcessCalls,
        // The same guard as a plain provider, for the hook KitModule.setup installs.
        ActionThrottlerGuard,
        { provide: APP_GUARD, useClass: OriginGuard },
        { provide: APP_GUARD, useClass: ActionThrottlerGuard },
        // Reads an upload's body, then the context, then the chains (UploadBodyGuard, ChainGuard).
        { provide: APP_GUARD, useClass: UserContextGuard },
        UploadBodyGuard,
        ChainGuard,
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: ActionExceptionFilter },
      ],
      exports: [
        THROTTLE_CONFIG,
        THROTTLER_STORE,
        UPLOAD_CONFIG,
        REGISTERED_MINI_APPS,
        MINI_APPS_CONFIG,
        MiniAppIcons,
        ActionRegistry,
        UploadAdmission,
        InProcessCalls,
      ],
    };
  }
}
