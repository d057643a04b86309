import type { Provider } from '@nestjs/common';
import {
  Logger as PinoNestLogger,
  PARAMS_PROVIDER_TOKEN,
  type Params,
  PinoLogger,
} from 'nestjs-pino';
import type { DestinationStream, Logger } from 'pino';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { OBSERVABILITY_CONFIG, type ObservabilityConfig } from '../../config/observability.config';
import { createRootLogger, LOG_DESTINATION } from './root-logger';

/** The process's pino logger (nestjs-pino's, the access lines'). */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * nestjs-pino's `Logger` (installed as Nest's logger by setupApp) and `PinoLogger`, writing
 * through the root logger; while a request is served, through the child RequestObserver binds to
 * its id (see observability/request-scope.ts). LoggerModule is not imported: its only other work is a Nest
 * middleware (pino-http) binding that child, which costs every request tens of microseconds
 * through Nest's middleware layer for what one hook does.
 */
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
  {
    provide: PARAMS_PROVIDER_TOKEN,
    inject: [ROOT_LOGGER],
    useFactory: (logger: Logger): Params => ({ pinoHttp: { logger } }),
  },
  PinoLogger,
  PinoNestLogger,
];
