import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { APP_OPTIONS, createAdapter, setupApp } from './app.setup';
import { loadConfig } from './config/app.config';
import { GracefulShutdown } from './core/shutdown/graceful-shutdown';

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

  // SIGTERM/SIGINT: readiness off, accepted requests answered, then exit 0 (1 past the timeout).
  GracefulShutdown.of(app).listenForSignals();
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
