import { ConsoleLogger, Logger, type Type } from '@nestjs/common';
import { checkConfiguration } from './config/configuration.check';
import { ConfigError } from './config/env';
import { bootWarnings } from './server/boot-warnings';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { APP_OPTIONS, createAdapter, setupApp } from './server/app.setup';
import { type AppConfig, loadConfig } from './config/app.config';
import type { FastifyListenOptions } from 'fastify';
import { checkPortFree, openAcceptSockets } from './server/edge/accept-sockets';
import type { MiniAppDeclaration } from './contract/mini-app.types';
import { MetricsServer } from './telemetry/metrics/metrics.server';
import { GracefulShutdown } from './server/graceful-shutdown';
import { listeningLine } from './listening-line';

export interface BootstrapOptions {
  /** Served instead of the shipped actions (the bench serves generated ones beside them). */
  actions?: readonly Type[];
  miniApps?: readonly MiniAppDeclaration[];
  /** Runs once the app is set up, before it listens. */
  beforeListen?: (app: NestFastifyApplication) => Promise<void>;
}

/** The production start: main.ts calls it after tracing is loaded; the bench's servers too. */
export async function bootstrap(options: BootstrapOptions = {}): Promise<void> {
  const env = process.env;
  // Every group of variables at once, before a module is built.
  checkConfiguration(env);
  const config = loadConfig(env);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config, env, actions: options.actions, miniApps: options.miniApps }),
    createAdapter(config),
    {
      ...APP_OPTIONS,
      // Boot lines wait for the pino logger setupApp installs; should the boot fail before,
      // they are written as JSON (text in development), coloured only on a terminal.
      bufferLogs: true,
      // A failed boot is reported by start(), not by Nest's process.abort() with a stack.
      abortOnError: false,
      logger: new BootLogger({
        json: config.nodeEnv !== 'development',
        colors: process.stdout.isTTY === true,
      }),
    },
  );
  setupApp(app);
  for (const warning of bootWarnings(config, env)) new Logger('Bootstrap').warn(warning);
  await options.beforeListen?.(app);
  const logger = new Logger('Bootstrap');
  await listenApp(app, config, logger);
  logger.log(listeningLine(app.getHttpServer().address()));
  // Prometheus on its own port (METRICS_PORT), never the public one.
  await app.get(MetricsServer).listen();

  // SIGTERM/SIGINT: readiness off, accepted requests answered, then exit 0 (1 past the timeout).
  GracefulShutdown.of(app).listenForSignals();
}

/**
 * Listens on PORT and HOST with ACCEPT_SOCKETS listening sockets (SO_REUSEPORT, on Linux only):
 * see src/server/edge/accept-sockets.ts. A port already taken fails the boot as it would with one
 * socket; one of the others that cannot be opened is a warning: the service accepts on those it has.
 */
export async function listenApp(
  app: NestFastifyApplication,
  config: AppConfig,
  logger: Pick<Logger, 'warn'>,
): Promise<void> {
  const count = process.platform === 'linux' ? config.acceptSockets : 1;
  // Fastify hands its listen options to Node's server.listen; its type does not name reusePort.
  const options: FastifyListenOptions & { reusePort?: boolean } = {
    port: config.port,
    host: config.host,
    backlog: config.listenBacklog,
    reusePort: count > 1,
  };
  if (count > 1 && config.port !== 0) await checkPortFree(config.port, config.host);
  await app.listen(options);
  const { opened, error } = await openAcceptSockets(app.getHttpServer(), {
    count,
    backlog: config.listenBacklog,
    maxConnections: config.maxConnections,
  });
  if (error) {
    logger.warn(`Accepting on ${opened + 1} of ${count} listening sockets: ${error.message}`);
  }
}

/**
 * Nest's console logger for the boot, minus the stack Nest's ExceptionHandler writes for a
 * refused configuration (a loader of a feature module): start() prints that one as its message.
 */
class BootLogger extends ConsoleLogger {
  override error(message: unknown, ...rest: unknown[]): void {
    if (message instanceof ConfigError) return;
    super.error(message, ...rest);
  }
}

/** Starts the service; a failed boot prints its reason (never a stack) and exits 1. */
export function start(options?: BootstrapOptions): void {
  bootstrap(options).catch((error: unknown) => {
    // A configuration refused by any loader, in the one shape checkConfiguration prints.
    if (error instanceof ConfigError) console.error(new ConfigError(error.problems).message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
