import { Logger, type Type } from '@nestjs/common';
import { checkConfiguration } from './config/configuration.check';
import { ConfigError } from './config/env';
import { bootWarnings } from './server/boot-warnings';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { APP_OPTIONS, createAdapter, setupApp } from './server/app.setup';
import { type AppConfig, loadConfig } from './config/app.config';
import type { FastifyListenOptions } from 'fastify';
import { backlogShares, checkPortFree, openAcceptSockets } from './server/edge/accept-sockets';
import type { MiniAppDeclaration } from './contract/mini-app.types';
import { MetricsServer } from './telemetry/metrics/metrics.server';
import { GracefulShutdown } from './server/graceful-shutdown';
import { listeningLine, namePortInUse } from './listening-line';
import type { Logger as PinoLogger } from 'pino';
import { loadObservabilityConfig } from './config/observability.config';
import { BootLogger } from './telemetry/logging/boot-logger';
import { createRootLogger, flushStdout } from './telemetry/logging/root-logger';
import { fdLimitMessage, isFdExhaustion } from './telemetry/fd-limit';

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
  const root = await bootRootLogger(env, config);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config, env, actions: options.actions, miniApps: options.miniApps }),
    createAdapter(config),
    {
      ...APP_OPTIONS,
      // A failed boot is reported by start(), not by Nest's process.abort() with a stack.
      abortOnError: false,
      // NestFactory's own lines go to the JSON stream as they happen (not to a buffer a failed
      // boot never flushes); setupApp then installs nestjs-pino's logger on the same stdout.
      logger: new QuietConfigErrors(root),
    },
  );
  setupApp(app);
  for (const warning of bootWarnings(config, env)) new Logger('Bootstrap').warn(warning);
  await options.beforeListen?.(app);
  const logger = new Logger('Bootstrap');
  // A port in use fails the boot with one line naming the variable to change.
  await listenApp(app, config, logger).catch((error: unknown) => {
    throw namePortInUse(error, 'PORT');
  });
  // Prometheus on its own port (METRICS_PORT), never the public one; opened before the
  // `Listening on` line, so that line means every port is open.
  await app
    .get(MetricsServer)
    .listen()
    .catch((error: unknown) => {
      throw namePortInUse(error, 'METRICS_PORT');
    });
  logger.log(listeningLine(app.getHttpServer().address()));

  // SIGTERM/SIGINT: readiness off, accepted requests answered, then exit 0 (1 past the timeout).
  GracefulShutdown.of(app).listenForSignals();
}

/**
 * Listens on PORT and HOST with ACCEPT_SOCKETS listening sockets (SO_REUSEPORT, on Linux only),
 * sharing LISTEN_BACKLOG: see src/server/edge/accept-sockets.ts. A port already taken fails the
 * boot as it would with one socket, and so does the open-file limit (EMFILE, ENFILE); another
 * socket that cannot be opened (no SO_REUSEPORT) is a warning: the service accepts on those it has.
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
    backlog: backlogShares(config.listenBacklog, count)[0],
    reusePort: count > 1,
  };
  if (count > 1 && config.port !== 0) await checkPortFree(config.port, config.host);
  await app.listen(options);
  const { opened, error } = await openAcceptSockets(app.getHttpServer(), {
    count,
    backlog: config.listenBacklog,
    maxConnections: config.maxConnections,
  });
  // Out of descriptors, the service would run short of them for its connections at once.
  if (error && isFdExhaustion(error)) throw error;
  if (error) {
    logger.warn(`Accepting on ${opened + 1} of ${count} listening sockets: ${error.message}`);
  }
}

/** The root logger of the boot, made once, that a failed boot writes its reason with. */
let bootRoot: PinoLogger | undefined;

async function bootRootLogger(env: NodeJS.ProcessEnv, config: AppConfig): Promise<PinoLogger> {
  const { logLevel } = loadObservabilityConfig(env, config.port);
  bootRoot = await createRootLogger({ level: logLevel, pretty: config.nodeEnv === 'development' });
  return bootRoot;
}

/**
 * The boot's logger, minus the stack Nest's ExceptionHandler writes for a refused configuration
 * (a loader of a feature module): start() prints that one as its message.
 */
class QuietConfigErrors extends BootLogger {
  override error(message: unknown, ...rest: unknown[]): void {
    if (message instanceof ConfigError) return;
    super.error(message, ...rest);
  }
}

/**
 * Starts the service; a failed boot exits 1 after its reason, never a stack: a refused
 * configuration as the text checkConfiguration prints (stderr), anything else as an `error` line
 * of the JSON stream (the open-file limit named when that is the cause), written out before the
 * exit.
 */
export function start(options?: BootstrapOptions): void {
  bootstrap(options).catch(async (error: unknown) => {
    // A configuration refused by any loader, in the one shape checkConfiguration prints.
    if (error instanceof ConfigError) {
      console.error(new ConfigError(error.problems).message);
      process.exit(1);
    }
    const reason =
      fdLimitMessage(error) ?? (error instanceof Error ? error.message : String(error));
    const root = bootRoot ?? (await createRootLogger({ level: 'info', pretty: false }));
    root.error({ context: 'Bootstrap' }, `Boot failed: ${reason}`);
    await flushStdout();
    process.exit(1);
  });
}
