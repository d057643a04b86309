import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import { ResultCache } from '../../src/kit';
import { createTestApp } from '../support/app.factory';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';

const CALC = '/api/calculator?operation=add&a=1&b=2';
/** This run's keys only: the database is REDIS_TEST_URL's, other runs may be using it. */
const PREFIX = runKeyPrefix('limits');

function call(app: NestFastifyApplication, ip: string): Promise<number> {
  return app.inject({ method: 'POST', url: CALC, remoteAddress: ip }).then((r) => r.statusCode);
}

describeWithRedis()('Shared limits and cache on a real Redis', () => {
  let first: NestFastifyApplication;
  let second: NestFastifyApplication;
  let admin: Redis;

  beforeAll(async () => {
    admin = new Redis(REDIS_TEST_URL);
    const env = {
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: PREFIX,
      RATE_LIMIT_IP_MAX: '10',
      RATE_LIMIT_USER_MAX: '1000',
    };
    [first, second] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
    await deleteKeys(admin, PREFIX);
    admin.disconnect();
  });

  it('two instances enforce one limit together', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) codes.push(await call(i % 2 === 0 ? first : second, '10.9.0.1'));
    expect(codes).toEqual(Array(10).fill(200));
    expect(await call(first, '10.9.0.1')).toBe(429);
    expect(await call(second, '10.9.0.1')).toBe(429);
  });

  it('50 concurrent requests against a limit of 10 give exactly 10 successes', async () => {
    const codes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(i % 2 === 0 ? first : second, '10.9.0.2')),
    );
    expect(codes.filter((code) => code === 200)).toHaveLength(10);
    expect(codes.filter((code) => code === 429)).toHaveLength(40);
  });

  it('keeps the counters in Redis with an expiry', async () => {
    await call(first, '10.9.0.3');
    const keys = await admin.keys(`${PREFIX}*10.9.0.3*`);
    expect(keys.length).toBeGreaterThan(0);
    const ttl = await admin.pttl(keys[0]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('shares cached results across instances', async () => {
    const compute = jest.fn(() => Promise.resolve({ answer: 42 }));
    const a = await first.get(ResultCache).getOrCompute('shared-key', compute);
    const b = await second.get(ResultCache).getOrCompute('shared-key', compute);
    expect(a).toEqual({ value: { answer: 42 }, cached: false });
    expect(b).toEqual({ value: { answer: 42 }, cached: true });
    expect(compute).toHaveBeenCalledTimes(1);
    expect(await admin.pttl(`${PREFIX}cache:shared-key`)).toBeGreaterThan(0);
  });

  it('writes only under its prefix, and deletes exactly its own keys', async () => {
    const neighbour = `${runKeyPrefix('neighbour')}kept`;
    await admin.set(neighbour, 'not ours', 'PX', 60_000);
    try {
      const ours = await admin.keys(`${PREFIX}*`);
      expect(ours.length).toBeGreaterThan(2);
      expect(await deleteKeys(admin, PREFIX)).toBe(ours.length);
      expect(await admin.keys(`${PREFIX}*`)).toEqual([]);
      expect(await admin.get(neighbour)).toBe('not ours');
    } finally {
      await admin.del(neighbour);
    }
  });

  it('reports Redis as up in readiness', async () => {
    const response = await first.inject({ method: 'GET', url: '/health/ready' });
    expect(response.json()).toEqual({
      status: 'ok',
      dependencies: { redis: { status: 'up', required: false } },
    });
  });
});
