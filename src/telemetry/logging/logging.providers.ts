import type { DynamicModule, Provider } from '@nestjs/common';
import { LoggerModule, type Params } from 'nestjs-pino';
import type { DestinationStream, Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { OBSERVABILITY_CONFIG, type ObservabilityConfig } from '../../config/observability.config';
import { createRootLogger, LOG_DESTINATION } from './root-logger';

/** The process's pino logger (nestjs-pino's, the access lines'). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** The root logger and where it writes: stdout; the tests override it with a stream they read. */
export const loggingProviders: Provider[] = [
  { provide: LOG_DESTINATION, useValue: null },
  {
    provide: ROOT_LOGGER,
    inject: [OBSERVABILITY_CONFIG, APP_CONFIG, LOG_DESTINATION],
    useFactory: (
      { logLevel }: ObservabilityConfig,
      { nodeEnv }: AppConfig,
      destination: DestinationStream | null,
    ): Promise<Logger> =>
      createRootLogger({
        level: logLevel,
        pretty: nodeEnv === 'development',
        destination: destination ?? undefined,
      }),
  },
];

/**
 * nestjs-pino's own module, global, writing through the root logger: a team's provider injects
 * `PinoLogger`, `@InjectPinoLogger('Context')` or Nest's `Logger` as nestjs-pino documents, and
 * while a request is served its lines carry the request's id (the child RequestObserver binds,
 * see telemetry/request-scope.ts). Called at boot, not at import: `@InjectPinoLogger` contexts are
 * collected as classes are declared, so the action modules must all be loaded first.
 * Its pino-http middleware stays off (`forRoutes: []`): one Fastify hook binds the request's
 * logger for a fraction of what Nest's middleware layer costs per request.
 */
export const pinoLoggerModule = (): DynamicModule =>
  LoggerModule.forRootAsync({
    inject: [ROOT_LOGGER],
    useFactory: (logger: Logger): Params => ({
      pinoHttp: { logger },
      useExisting: true,
      forRoutes: [],
    }),
  });
