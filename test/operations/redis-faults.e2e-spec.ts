import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ChildProcess } from 'node:child_process';
import { ResultCache } from '../../src/kit';
import type { Readiness } from '../../src/server/health.controller';
import { createTestApp } from '../support/app.factory';
import {
  describeWithRedis,
  freePort,
  startRedisServer,
  stopRedisServer,
} from '../support/redis.helper';

const CALC = '/api/calculator?operation=add&a=1&b=2';

/** Polls readiness until Redis shows the wanted state (bounded: the client retries every second at most). */
async function waitForRedis(app: NestFastifyApplication, state: 'up' | 'down'): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await app.inject({ method: 'GET', url: '/health/ready' });
    const redis = response.json<Readiness>().dependencies?.redis?.status;
    if (response.statusCode === 200 && redis === state) return;
    if (response.statusCode === 503 && state === 'down') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Redis never became ${state}`);
}

async function timed(
  app: NestFastifyApplication,
  ip: string,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await app.inject({ method: 'POST', url: CALC, remoteAddress: ip });
  return { status: response.statusCode, ms: performance.now() - started };
}

describeWithRedis()('Redis going away and coming back', () => {
  let port: number;
  let redis: ChildProcess;

  beforeEach(async () => {
    port = await freePort();
    redis = await startRedisServer(port);
  });
  afterEach(() => stopRedisServer(redis));

  it.each([
    ['allow', 200],
    ['deny', 503],
  ])(
    'RATE_LIMIT_ON_STORE_ERROR=%s answers %i at once while Redis is down, then limits resume',
    async (policy, status) => {
      const app = await createTestApp({
        env: {
          REDIS_URL: `redis://127.0.0.1:${port}`,
          RATE_LIMIT_IP_MAX: '3',
          RATE_LIMIT_ON_STORE_ERROR: policy,
        },
      });
      try {
        await waitForRedis(app, 'up');
        expect((await timed(app, '10.8.0.1')).status).toBe(200);

        await stopRedisServer(redis);
        await waitForRedis(app, 'down');
        const during = await Promise.all(Array.from({ length: 50 }, () => timed(app, '10.8.0.1')));
        expect(during.map((r) => r.status)).toEqual(Array(50).fill(status));
        for (const { ms } of during) expect(ms).toBeLessThan(1000);
        expect((await app.get(ResultCache).getOrCompute('k', () => Promise.resolve(7))).value).toBe(
          7,
        );

        redis = await startRedisServer(port);
        await waitForRedis(app, 'up');
        const after = [];
        for (let i = 0; i < 4; i++) after.push((await timed(app, '10.8.0.2')).status);
        expect(after).toEqual([200, 200, 200, 429]);
      } finally {
        await app.close();
      }
    },
  );
});
