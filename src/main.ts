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
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
