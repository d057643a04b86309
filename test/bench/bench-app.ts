/**
 * Boots the production build the way src/main.ts does, for the bench's own entries (the 200
 * actions, the 1,000,000 rate-limit keys). Everything comes from dist/ (`require`, typed by the
 * sources) so those servers run the same compiled code as `node dist/main.js`; run-bench.ts
 * transpiles the entries into dist/bench/, from where `../../dist/…` still names dist/.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the compiled modules, not the sources */
import type { Type } from '@nestjs/common';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type * as AppModuleTs from '../../src/app.module';
import type * as AppSetupTs from '../../src/app.setup';
import type * as AppConfigTs from '../../src/config/app.config';
import type * as MetricsServerTs from '../../src/core/metrics/metrics.server';
import type * as ShutdownTs from '../../src/core/shutdown/graceful-shutdown';
import type { MiniAppDeclaration } from '../../src/core';

// First, as in main.ts: tracing, when configured, starts before what it instruments is loaded.
require('../../dist/tracing');
const { AppModule } = require('../../dist/app.module') as typeof AppModuleTs;
const { APP_OPTIONS, createAdapter, setupApp } =
  require('../../dist/app.setup') as typeof AppSetupTs;
const { loadConfig } = require('../../dist/config/app.config') as typeof AppConfigTs;
const { MetricsServer } =
  require('../../dist/core/metrics/metrics.server') as typeof MetricsServerTs;
const { GracefulShutdown } =
  require('../../dist/core/shutdown/graceful-shutdown') as typeof ShutdownTs;

export interface BenchAppOptions {
  /** Served instead of the shipped actions (AppModule's default). */
  actions?: readonly Type[];
  miniApps?: readonly MiniAppDeclaration[];
  /** Runs after the app is built and before it listens. */
  beforeListen?: (app: NestFastifyApplication) => Promise<void>;
}

/** src/main.ts's bootstrap, with the app module's options and a hook before listening. */
export async function bootBenchApp(options: BenchAppOptions): Promise<void> {
  const env = process.env;
  const config = loadConfig(env);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot({ config, env, actions: options.actions, miniApps: options.miniApps }),
    createAdapter(config),
    {
      ...APP_OPTIONS,
      bufferLogs: true,
      logger: new ConsoleLogger({
        json: config.nodeEnv !== 'development',
        colors: process.stdout.isTTY === true,
      }),
    },
  );
  setupApp(app);
  await options.beforeListen?.(app);
  await app.listen(config.port, config.host);
  new Logger('Bootstrap').log(`Listening on ${await app.getUrl()}`);
  await app.get(MetricsServer).listen();
  GracefulShutdown.of(app).listenForSignals();
}

export function runBenchApp(options: BenchAppOptions): void {
  bootBenchApp(options).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
