import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { APP_OPTIONS, createAdapter, setupApp } from './app.setup';
import { loadConfig } from './config/app.config';

async function bootstrap(): Promise<void> {
  const env = process.env;
  const config = loadConfig(env);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config, env }),
    createAdapter(config),
    APP_OPTIONS,
  );
  setupApp(app);
  await app.listen(config.port, config.host);
  const logger = new Logger('Bootstrap');
  logger.log(`Listening on ${await app.getUrl()}`);

  // On SIGTERM/SIGINT: stop accepting, let accepted requests finish, close Redis, exit 0;
  // past SHUTDOWN_TIMEOUT_MS, exit 1 rather than hang an orchestrator's rollout.
  const shutdown = (signal: NodeJS.Signals): void => {
    logger.log(`${signal} received: finishing accepted requests`);
    setTimeout(() => {
      logger.error(`Requests still running after ${config.shutdownTimeoutMs} ms: exiting`);
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`Shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
