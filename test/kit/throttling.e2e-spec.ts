import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { UserLookupModule } from '../../src/actions/user-lookup/user-lookup.module';
import { createTestApp } from '../support/app.factory';
import { ThrottlingFixturesModule } from '../fixtures/throttling.fixture';

const ACTIONS = [CalculatorModule, UserLookupModule, ThrottlingFixturesModule];
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const CALC = '/api/calculator?operation=add&a=1&b=2';

function call(
  app: NestFastifyApplication,
  url: string,
  { ip = '10.0.0.1', headers = {} }: { ip?: string; headers?: Record<string, string> } = {},
): ReturnType<NestFastifyApplication['inject']> {
  return app.inject({ method: 'POST', url, remoteAddress: ip, headers });
}

async function statuses(
  app: NestFastifyApplication,
  count: number,
  url: string,
  ip?: string,
): Promise<number[]> {
  const codes: number[] = [];
  for (let i = 0; i < count; i++) codes.push((await call(app, url, { ip })).statusCode);
  return codes;
}

describe('Rate limits (in-memory store)', () => {
  describe('defaults: 10 per minute per IP, per action', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await createTestApp({
        actions: ACTIONS,
        env: { RATE_LIMIT_IP_MAX: '10', RATE_LIMIT_IP_WINDOW_SECONDS: '60' },
      });
    });
    afterAll(() => app.close());

    it('refuses the 11th request from one IP with 429, Retry-After and rate-limit headers', async () => {
      expect(await statuses(app, 10, CALC, '10.0.0.1')).toEqual(Array(10).fill(200));
      const refused = await call(app, CALC, { ip: '10.0.0.1' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        success: false,
        error: 'Too many requests',
        statusCode: 429,
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.headers['x-ratelimit-limit']).toBe('10');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    });

    it('refuses an over-limit client before its body is parsed: a body that is no JSON is a 429, not a 400', async () => {
      expect(await statuses(app, 10, CALC, '10.0.0.30')).toEqual(Array(10).fill(200));
      const garbage = `{"params": [${'['.repeat(5000)}`;
      const refused = await app.inject({
        method: 'POST',
        url: CALC,
        remoteAddress: '10.0.0.30',
        headers: { 'content-type': 'application/json' },
        payload: garbage,
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'Too many requests' });
      // Each request is counted once: the early count stands in for the guard's.
      const other = await call(app, CALC, { ip: '10.0.0.31' });
      expect(other.headers['x-ratelimit-remaining']).toBe('9');
    });

    it('counts the remaining requests down in the headers', async () => {
      const first = await call(app, CALC, { ip: '10.0.0.2' });
      const second = await call(app, CALC, { ip: '10.0.0.2' });
      expect(first.headers['x-ratelimit-remaining']).toBe('9');
      expect(second.headers['x-ratelimit-remaining']).toBe('8');
      expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    });

    it('counts different IPs apart', async () => {
      await statuses(app, 11, CALC, '10.0.0.3');
      expect((await call(app, CALC, { ip: '10.0.0.4' })).statusCode).toBe(200);
    });

    it('limits the transaction reports and reads too, each route on its own count', async () => {
      const url = `/api/transactions/${'A'.repeat(32)}`;
      const read = () => app.inject({ method: 'GET', url, remoteAddress: '10.0.0.9' });
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) codes.push((await read()).statusCode);
      expect(codes).toEqual([...Array(10).fill(404), 429]);
      expect((await read()).json()).toMatchObject({ success: false, statusCode: 429 });
      expect((await call(app, url, { ip: '10.0.0.9' })).statusCode).toBe(400);
    });

    it('counts each action endpoint apart by default', async () => {
      await statuses(app, 11, CALC, '10.0.0.5');
      expect((await call(app, '/api/user-lookup?userId=1', { ip: '10.0.0.5' })).statusCode).toBe(
        200,
      );
    });

    it('answers 429 in the transaction shape for transaction actions', async () => {
      const headers = { 'x-user-address': ADDRESS };
      for (let i = 0; i < 10; i++)
        await call(app, '/api/test-transfer', { ip: '10.0.0.6', headers });
      const refused = await call(app, '/api/test-transfer', { ip: '10.0.0.6', headers });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        error: 'Too many requests',
        code: 'RATE_LIMITED',
        message: 'Too many requests, please try again in 60 seconds',
      });
      expect(refused.headers['retry-after']).toBeDefined();
    });

    it('applies the limits a declaration sets for its action', async () => {
      expect(await statuses(app, 3, '/api/tight', '10.0.0.7')).toEqual([200, 200, 429]);
    });

    it('never counts OPTIONS, health or metadata', async () => {
      for (let i = 0; i < 5; i++) {
        await app.inject({ method: 'OPTIONS', url: '/api/tight', remoteAddress: '10.0.0.8' });
        await app.inject({ method: 'GET', url: '/health', remoteAddress: '10.0.0.8' });
        await app.inject({ method: 'GET', url: '/api/metadata', remoteAddress: '10.0.0.8' });
        await app.inject({ method: 'GET', url: '/api/tight', remoteAddress: '10.0.0.8' });
      }
      expect(await statuses(app, 2, '/api/tight', '10.0.0.8')).toEqual([200, 200]);
    });
  });

  describe('per user address', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await createTestApp({ actions: ACTIONS, env: { RATE_LIMIT_USER_MAX: '3' } });
    });
    afterAll(() => app.close());

    it('shares one bucket across header aliases, IPs and letter case', async () => {
      const sent: { ip: string; headers: Record<string, string>; query?: string }[] = [
        { ip: '10.1.0.1', headers: { 'x-user-address': ADDRESS.toLowerCase() } },
        { ip: '10.1.0.2', headers: { 'x-wallet-address': ADDRESS } },
        {
          ip: '10.1.0.3',
          headers: {},
          query: `&userAddress=${ADDRESS.toLowerCase()}`,
        },
      ];
      for (const { ip, headers, query = '' } of sent) {
        expect((await call(app, CALC + query, { ip, headers })).statusCode).toBe(200);
      }
      const refused = await call(app, CALC, {
        ip: '10.1.0.4',
        headers: { 'x-user-address': ADDRESS },
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
    });

    it('does not count anonymous requests against any user', async () => {
      expect(await statuses(app, 5, CALC, '10.1.0.9')).toEqual(Array(5).fill(200));
    });
  });

  describe('global scope', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await createTestApp({
        actions: ACTIONS,
        env: { RATE_LIMIT_IP_MAX: '10', RATE_LIMIT_SCOPE: 'global' },
      });
    });
    afterAll(() => app.close());

    it('counts one IP across all actions', async () => {
      await statuses(app, 5, CALC, '10.2.0.1');
      await statuses(app, 5, '/api/user-lookup?userId=1', '10.2.0.1');
      expect((await call(app, CALC, { ip: '10.2.0.1' })).statusCode).toBe(429);
      expect((await call(app, '/api/user-lookup?userId=2', { ip: '10.2.0.1' })).statusCode).toBe(
        429,
      );
    });
  });

  describe('client IP behind proxies', () => {
    const spoof = (
      app: NestFastifyApplication,
      forwarded: string,
    ): ReturnType<NestFastifyApplication['inject']> =>
      call(app, CALC, { ip: '127.0.0.1', headers: { 'x-forwarded-for': forwarded } });

    it('ignores X-Forwarded-For when TRUST_PROXY is off', async () => {
      const app = await createTestApp({ actions: ACTIONS, env: { RATE_LIMIT_IP_MAX: '2' } });
      const codes = [
        await spoof(app, '1.1.1.1'),
        await spoof(app, '2.2.2.2'),
        await spoof(app, '3.3.3.3'),
      ];
      expect(codes.map((r) => r.statusCode)).toEqual([200, 200, 429]);
      await app.close();
    });

    it('believes X-Forwarded-For from a listed proxy', async () => {
      const app = await createTestApp({
        actions: ACTIONS,
        env: { RATE_LIMIT_IP_MAX: '2', TRUST_PROXY: '127.0.0.1' },
      });
      const codes = [
        await spoof(app, '1.1.1.1'),
        await spoof(app, '2.2.2.2'),
        await spoof(app, '3.3.3.3'),
      ];
      expect(codes.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect((await spoof(app, '1.1.1.1')).statusCode).toBe(200);
      expect((await spoof(app, '1.1.1.1')).statusCode).toBe(429);
      await app.close();
    });
  });
});
