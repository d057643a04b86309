import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis, { type Command } from 'ioredis';
import { REDIS } from '../../src/telemetry/redis/redis.provider';
import { createTestApp } from '../support/app.factory';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';

const PREFIX = runKeyPrefix('one-trip');
const USER = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const BODY = { params: { operation: 'add', a: 1, b: 2 } };

/**
 * With Redis, a request whose headers or query name its user has both limits counted in one
 * script call, before its body is read; a user named only in the body is counted after it.
 */
describeWithRedis()('Both rate limits in one Redis round trip', () => {
  let app: NestFastifyApplication;
  let admin: Redis;
  let scripts = 0;

  beforeAll(async () => {
    admin = new Redis(REDIS_TEST_URL);
    app = await createTestApp({
      env: {
        REDIS_URL: REDIS_TEST_URL,
        REDIS_KEY_PREFIX: PREFIX,
        RATE_LIMIT_IP_MAX: '1000',
        RATE_LIMIT_USER_MAX: '3',
      },
    });
    const redis = app.get<Redis>(REDIS);
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = (command: Command, ...rest: unknown[]): unknown => {
      if (command.name === 'evalsha' || command.name === 'eval') scripts++;
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    };
  });
  afterAll(async () => {
    await app.close();
    await deleteKeys(admin, PREFIX);
    admin.disconnect();
  });

  const post = (ip: string, headers: Record<string, string>, body: object = BODY) =>
    app.inject({
      method: 'POST',
      url: '/api/calculator',
      remoteAddress: ip,
      headers,
      payload: body,
    });
  const hits = (tracker: string, name: 'ip' | 'user'): Promise<string | null> =>
    admin.get(`${PREFIX}{ratelimit:/api/calculator:${tracker}:${name}}:hits`);

  it('counts the IP and a user named in a header with one script call', async () => {
    scripts = 0;
    const answer = await post('10.7.0.1', { 'x-user-address': USER.toLowerCase() });
    expect(answer.statusCode).toBe(200);
    expect(scripts).toBe(1);
    expect([await hits('10.7.0.1', 'ip'), await hits(USER, 'user')]).toEqual(['1', '1']);
  });

  it("refuses the user past its limit with that call's count, in the action's mode", async () => {
    const user = '0x52908400098527886E0F7030069857D2E4169EE7';
    const codes: number[] = [];
    const remaining: unknown[] = [];
    scripts = 0;
    for (let i = 0; i < 4; i++) {
      const answer = await post(`10.7.0.${10 + i}`, { 'x-wallet-address': user });
      codes.push(answer.statusCode);
      remaining.push(answer.headers['x-ratelimit-remaining']);
      if (i === 3) expect(answer.json()).toMatchObject({ success: false, statusCode: 429 });
    }
    expect(codes).toEqual([200, 200, 200, 429]);
    expect(remaining).toEqual(['2', '1', '0', '0']);
    expect(scripts).toBe(4);
  });

  it('counts a user named only in the body after the body: two calls, the same counters', async () => {
    const user = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
    scripts = 0;
    const answer = await post('10.7.0.2', {}, { ...BODY, context: { userAddress: user } });
    expect(answer.statusCode).toBe(200);
    expect(scripts).toBe(2);
    expect([await hits('10.7.0.2', 'ip'), await hits(user, 'user')]).toEqual(['1', '1']);
  });

  it('counts only the IP when the header names no address (a 400)', async () => {
    scripts = 0;
    const answer = await post('10.7.0.3', { 'x-user-address': 'nobody' });
    expect(answer.statusCode).toBe(400);
    expect(scripts).toBe(1);
    expect(await hits('10.7.0.3', 'ip')).toBe('1');
    expect(await admin.keys(`${PREFIX}*nobody*`)).toEqual([]);
  });
});
