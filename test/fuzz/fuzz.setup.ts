import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ACTION_MODULES } from '../../src/actions';
import { declaredActions } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { EveryTypeModule } from '../fixtures/every-type.fixture';
import { UploadFixtureModule } from '../fixtures/upload.fixture';
import { ADDRESS, type FuzzAction } from './fuzz.properties';
import { sessionHeaders } from '../../src/testing';

/**
 * The environment the fuzz suites boot with: every upstream (HTTP API, RPC) points at a closed
 * loopback port, so actions that call out fail in their declared way and nothing reaches the internet.
 */
const CLOSED = 'http://127.0.0.1:9';

export const FUZZ_ENV: Record<string, string> = {
  WEATHER_GEOCODING_URL: CLOSED,
  WEATHER_FORECAST_URL: CLOSED,
  PRICE_API_URL: CLOSED,
  RPC_URL_31337: CLOSED,
  RPC_URL_43113: CLOSED,
  EXTERNAL_TIMEOUT_MS: '200',
};

/**
 * Boots the service for fuzzing, with the every-type and upload fixtures beside the shipped actions so each
 * parameter type is generated, and lists every action with what the fuzzer must know of it.
 */
export async function startFuzzTarget(): Promise<{
  app: NestFastifyApplication;
  targets: FuzzAction[];
}> {
  const app = await createTestApp({
    env: FUZZ_ENV,
    actions: [...ACTION_MODULES, EveryTypeModule, UploadFixtureModule],
  });
  // Which actions may answer 5xx here is what their declarations say (`callsOutside`).
  const targets = await Promise.all(
    declaredActions(app).map(async ({ action, declaration, callsOutside, requiresUser }) => ({
      action,
      upstream: callsOutside,
      requiresUser,
      ...(declaration.user === 'verified' && {
        session: (await sessionHeaders(app, ADDRESS)).authorization.slice('Bearer '.length),
      }),
    })),
  );
  return { app, targets };
}
