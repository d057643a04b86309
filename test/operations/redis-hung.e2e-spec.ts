import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ChildProcess } from 'node:child_process';
import type { Readiness } from '../../src/server/health.controller';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import { REDIS_COMMAND_TIMEOUT_MS } from '../../src/telemetry/redis/redis.provider';
import { createTestApp } from '../support/app.factory';
import { testLogs } from '../support/log-capture.helper';
import { parseExposition, valueOf } from '../support/prometheus.helper';
import {
  describeWithRedis,
  freePort,
  startRedisServer,
  stopRedisServer,
} from '../support/redis.helper';

const CALC = '/api/calculator?operation=add&a=1&b=2';

/** Polls readiness until it shows `wanted` (the probe PINGs every second). */
async function waitForReadiness(
  app: NestFastifyApplication,
  wanted: (status: number, body: Readiness) => boolean,
): Promise<{ status: number; body: Readiness }> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await app.inject({ method: 'GET', url: '/health/ready' });
    const seen = { status: response.statusCode, body: response.json<Readiness>() };
    if (wanted(seen.status, seen.body)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('readiness never reached the wanted state');
}

const redisState = (body: Readiness): string | undefined => body.dependencies?.redis?.status;

async function redisUp(app: NestFastifyApplication): Promise<number | undefined> {
  const text = await app.get(ActionMetrics).registry.metrics();
  return valueOf(parseExposition(text), 'dynamic_action_redis_up');
}

const redisLines = (): string[] =>
  testLogs
    .lines()
    .filter((line) => line.context === 'Redis')
    .map((line) => `${line.level} ${line.msg}`);

/**
 * A Redis that stops answering (SIGSTOP: the socket stays open, nothing is refused) is a private
 * redis-server child, never the machine's shared one.
 */
describeWithRedis()('a Redis that hangs (SIGSTOP) rather than goes away', () => {
  let redis: ChildProcess;
  let port: number;

  beforeEach(async () => {
    port = await freePort();
    redis = await startRedisServer(port);
    testLogs.clear();
  });
  afterEach(async () => {
    redis.kill('SIGCONT');
    await stopRedisServer(redis);
  });

  it('allow: is reported down at once, requests stop waiting on it, one line each way, then it recovers', async () => {
    const app = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_ON_STORE_ERROR: 'allow' },
    });
    try {
      await waitForReadiness(app, (s, body) => s === 200 && redisState(body) === 'up');
      expect(await redisUp(app)).toBe(1);

      redis.kill('SIGSTOP');
      const hung = await waitForReadiness(app, (_, body) => redisState(body) === 'down');
      expect(hung).toEqual({
        status: 200,
        body: { status: 'degraded', dependencies: { redis: { status: 'down', required: false } } },
      });
      expect(await redisUp(app)).toBe(0);

      // The breaker is open: requests no longer wait for a command timeout each.
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        const response = await app.inject({ method: 'POST', url: CALC, remoteAddress: '10.9.0.1' });
        expect(response.statusCode).toBe(200);
        expect(performance.now() - started).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS);
      }
      expect(redisLines().filter((line) => line.startsWith('error'))).toHaveLength(1);
      expect(redisLines()[redisLines().length - 1]).toMatch(/^error Unavailable \(not answering/);

      redis.kill('SIGCONT');
      await waitForReadiness(app, (s, body) => s === 200 && body.status === 'ok');
      expect(await redisUp(app)).toBe(1);
      expect(redisLines().filter((line) => /Answering again/.test(line))).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('deny: readiness answers 503 while Redis is silent, and requests are refused at once', async () => {
    const app = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_ON_STORE_ERROR: 'deny' },
    });
    try {
      await waitForReadiness(app, (s, body) => s === 200 && redisState(body) === 'up');
      redis.kill('SIGSTOP');
      await waitForReadiness(app, (s) => s === 503);
      const started = performance.now();
      const response = await app.inject({ method: 'POST', url: CALC, remoteAddress: '10.9.0.2' });
      expect(response.statusCode).toBe(503);
      expect(performance.now() - started).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS);
    } finally {
      await app.close();
    }
  });

  it('a request that meets the hang first trips the breaker for the ones after it', async () => {
    const app = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_ON_STORE_ERROR: 'allow' },
    });
    try {
      await waitForReadiness(app, (s, body) => s === 200 && redisState(body) === 'up');
      redis.kill('SIGSTOP');
      // Whichever comes first (this request or the probe) opens the breaker.
      expect(
        (await app.inject({ method: 'POST', url: CALC, remoteAddress: '10.9.0.3' })).statusCode,
      ).toBe(200);
      const response = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(redisState(response.json<Readiness>())).toBe('down');
    } finally {
      await app.close();
    }
  });
});
