import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app.module';
import { APP_OPTIONS, createAdapter, setupApp } from '../../src/server/app.setup';
import { loadConfig } from '../../src/config/app.config';
import type { MiniAppDeclaration } from '../../src/kit';
import { LOG_DESTINATION } from '../../src/telemetry/logging/root-logger';
import { testLogs } from './log-capture.helper';

/**
 * What createTestApp builds on top of the real application: extra environment, and the actions and
 * mini-apps to serve instead of the shipped ones, so a suite can test one action alone.
 */
export interface TestAppOptions {
  /** Environment variables on top of `NODE_ENV=test` and rate limits out of reach. */
  env?: Record<string, string>;
  /** Action modules to serve instead of the real list. */
  actions?: readonly Type[];
  /** Mini-apps to register; default: the shipped ones, or those the given actions name. */
  miniApps?: readonly MiniAppDeclaration[];
}

/**
 * Builds the application exactly as main.ts does, through the Nest testing module, with
 * `NODE_ENV=test`, rate limits out of reach and logs kept in `testLogs`. Close it in `afterAll`.
 *
 * @param options - extra environment, and the actions and mini-apps to serve instead of the
 *   shipped ones.
 */
export async function createTestApp({
  env = {},
  actions,
  miniApps,
}: TestAppOptions = {}): Promise<NestFastifyApplication> {
  // Limits out of reach unless a suite sets its own: only the throttling suites test them.
  const fullEnv = {
    NODE_ENV: 'test',
    RATE_LIMIT_IP_MAX: '1000000',
    RATE_LIMIT_USER_MAX: '1000000',
    ...env,
  };
  const config = loadConfig(fullEnv);
  // Log lines go where a test can read them (testLogs), not to the test runner's output.
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, env: fullEnv, actions, miniApps })],
  })
    .overrideProvider(LOG_DESTINATION)
    .useValue(testLogs)
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createAdapter(config), {
    ...APP_OPTIONS,
    logger: false,
  });
  setupApp(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/** An answer through Fastify's inject, its body parsed as JSON. */
export interface InjectedJson<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
}

/** A POST through Fastify's inject, parsed as JSON (every answer of the service is JSON). */
export async function postJson<T = Record<string, unknown>>(
  app: NestFastifyApplication,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<InjectedJson<T>> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: response.statusCode, headers: response.headers, body: response.json<T>() };
}
