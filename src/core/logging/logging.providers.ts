import { type DynamicModule, type Provider, RequestMethod } from '@nestjs/common';
import { LoggerModule, type Params } from 'nestjs-pino';
import type { DestinationStream, Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { OBSERVABILITY_CONFIG, type ObservabilityConfig } from '../../config/observability.config';
import { createRootLogger, LOG_DESTINATION } from './root-logger';

/** The process's pino logger (nestjs-pino's, the access lines'). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

export const loggingProviders: Provider[] = [
  // stdout; the tests override it with a stream they read.
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
 * nestjs-pino: Nest's `Logger` writes through the root logger, and while a request is served
 * through a child bound to its id (`reqId`, Fastify's id, the x-request-id the client sees),
 * found through AsyncLocalStorage, so no service passes the id around. Its own access lines are
 * off: RequestObserver writes them with the declared route, mode and error code.
 */
export const loggerModule = (): DynamicModule =>
  LoggerModule.forRootAsync({
    inject: [ROOT_LOGGER],
    useFactory: (logger: Logger): Params => ({
      pinoHttp: { logger, autoLogging: false, quietReqLogger: true },
      forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    }),
  });
