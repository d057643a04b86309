import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Server as NetServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { closeAcceptSockets } from './edge/accept-sockets';
import { HealthController } from './health.controller';
import { RedisStatus } from '../telemetry/redis/redis.provider';

/** How long closing Redis may take on the way out when the shutdown itself went wrong. */
const REDIS_CLOSE_MS = 500;

const registry = new WeakMap<NestFastifyApplication, GracefulShutdown>();

/**
 * SIGTERM without losing a request. From the signal on, readiness answers 503 (the load balancer
 * stops sending) and every answer carries `Connection: close`; after `SHUTDOWN_DELAY_MS` the
 * listener closes (new connections are refused) while open connections keep being served: a
 * socket closes once its answer is written, so no request written on it is ever reset. Sockets
 * still idle after `SHUTDOWN_DRAIN_MS` are closed; once the last connection ends, the application
 * closes (Redis included) and the exit code is 0. Past `SHUTDOWN_TIMEOUT_MS`, Redis is closed and
 * the exit code is 1.
 */
export class GracefulShutdown {
  private readonly logger = new Logger('Shutdown');
  private draining = false;
  /** What the shutdown is waiting on: named if the timeout strikes. */
  private phase = 'waiting for the pre-stop delay';
  private stopping?: Promise<number>;

  private constructor(
    private readonly app: NestFastifyApplication,
    private readonly config: AppConfig,
  ) {}

  /** Called once by setupApp (main.ts and the tests): the hooks answers need while draining. */
  static setup(app: NestFastifyApplication): void {
    const shutdown = new GracefulShutdown(app, app.get<AppConfig>(APP_CONFIG));
    registry.set(app, shutdown);
    const fastify = app.getHttpAdapter().getInstance();
    // Closed directly (app.close() in a test), answers still close their keep-alive connection,
    // or an idle socket would hold the close until its keep-alive timeout.
    fastify.addHook('preClose', (done) => {
      shutdown.draining = true;
      // Fastify closes the server's own listening socket; the others (ACCEPT_SOCKETS) close here.
      void closeAcceptSockets(app.getHttpServer());
      done();
    });
    fastify.addHook('onSend', (_req, reply, payload, done) => {
      if (shutdown.draining) void reply.header('connection', 'close');
      done(null, payload);
    });
  }

  static of(app: NestFastifyApplication): GracefulShutdown {
    const shutdown = registry.get(app);
    if (!shutdown) throw new Error('GracefulShutdown.setup(app) was not called (see setupApp)');
    return shutdown;
  }

  /** main.ts: the first SIGTERM or SIGINT stops the service, then the process exits with the code. */
  listenForSignals(): void {
    const onSignal = (signal: NodeJS.Signals): void => {
      if (this.stopping) this.logger.warn(`${signal} received again: already stopping`);
      void this.stop(signal).then((code) => process.exit(code));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }

  /** Stops once (later calls share the first); resolves with the exit code. */
  stop(reason: string): Promise<number> {
    this.stopping ??= this.run(reason);
    return this.stopping;
  }

  private async run(reason: string): Promise<number> {
    const { shutdownDelayMs, shutdownTimeoutMs } = this.config;
    const deadline = new AbortController();
    const expired = delay(shutdownTimeoutMs, 'expired' as const, { signal: deadline.signal });
    expired.catch(() => undefined); // aborted once the shutdown has ended in time
    try {
      this.draining = true;
      this.app.get(HealthController).markShuttingDown();
      this.logger.log(
        `${reason} received: not ready, answers close their connection` +
          (shutdownDelayMs > 0 ? `; listener closes in ${shutdownDelayMs} ms` : ''),
      );
      if ((await Promise.race([this.drainAndClose(), expired])) === 'stopped') return 0;
      this.logger.error(`Shutdown still ${this.phase} after ${shutdownTimeoutMs} ms: exiting`);
    } catch (error: unknown) {
      this.logger.error(
        `Shutdown failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      deadline.abort();
    }
    // Whatever went wrong, Redis is not left with a half-open connection.
    const redis = this.app.get(RedisStatus).onApplicationShutdown();
    await Promise.race([redis, delay(REDIS_CLOSE_MS, undefined, { ref: false })]);
    return 1;
  }

  private async drainAndClose(): Promise<'stopped'> {
    const { shutdownDelayMs, shutdownDrainMs } = this.config;
    // The pre-stop delay: still accepting while the load balancer takes the replica out.
    if (shutdownDelayMs > 0) await delay(shutdownDelayMs);
    const server = this.app.getHttpServer();
    // http.Server#close would also destroy idle keep-alive sockets at once, resetting requests
    // their clients are writing just now: close only the listening sockets (net.Server#close),
    // whose callbacks run once the last connection each accepted has ended.
    const drained = Promise.all([
      new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve())),
      closeAcceptSockets(server),
    ]);
    this.phase = 'waiting for requests to finish (open connections)';
    this.logger.log('Listener closed: serving open connections until they close');
    // A keep-alive socket that carried no request during the drain gets no answer to close it.
    const idle = setTimeout(() => server.closeIdleConnections(), shutdownDrainMs).unref();
    await drained;
    clearTimeout(idle);
    this.phase = 'closing the application (Redis, the last trace export)';
    await this.app.close();
    this.logger.log('Stopped: every accepted request was answered');
    return 'stopped';
  }
}
