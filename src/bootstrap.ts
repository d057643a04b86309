import { ConsoleLogger, Logger, type Type } from '@nestjs/common';
import { checkConfiguration } from './config/configuration.check';
import { ConfigError } from './config/env';
import { bootWarnings } from './server/boot-warnings';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { APP_OPTIONS, createAdapter, setupApp } from './server/app.setup';
import { loadConfig } from './config/app.config';
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
  await app.listen({ port: config.port, host: config.host, backlog: config.listenBacklog });
  const logger = new Logger('Bootstrap');
  logger.log(listeningLine(app.getHttpServer().address()));
  // Prometheus on its own port (METRICS_PORT), never the public one.
  await app.get(MetricsServer).listen();

  // SIGTERM/SIGINT: readiness off, accepted requests answered, then exit 0 (1 past the timeout).
  GracefulShutdown.of(app).listenForSignals();
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
