import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { createTestApp } from '../support/app.factory';
import { ThrottlingFixturesModule } from '../fixtures/throttling.fixture';

const ACTIONS = [CalculatorModule, ThrottlingFixturesModule];
const ALLOWED = 'https://app.example.com';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const CALC = '/api/calculator?operation=add&a=1&b=2';

function post(app: NestFastifyApplication, url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, headers });
}

describe('Origin and user guards', () => {
  describe('with ALLOWED_ORIGINS set', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await createTestApp({
        actions: ACTIONS,
        env: { ALLOWED_ORIGINS: `${ALLOWED}, https://other.example.com` },
      });
    });
    afterAll(() => app.close());

    it('serves a listed origin and reflects it in CORS', async () => {
      const response = await post(app, CALC, { origin: ALLOWED });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    });

    it('refuses another origin with 403 in the data shape, without reflecting it', async () => {
      const response = await post(app, CALC, { origin: 'https://evil.example.com' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        success: false,
        error: 'Origin not allowed',
        statusCode: 403,
      });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('refuses another origin with 403 in the transaction shape', async () => {
      const response = await post(app, '/api/test-transfer', {
        origin: 'https://evil.example.com',
        'x-user-address': ADDRESS,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        error: 'Origin not allowed',
        code: 'ORIGIN_NOT_ALLOWED',
        message: 'This app may not call the action',
      });
    });

    it('guards the transaction reports and reads as the actions (403 in the data shape)', async () => {
      const intent = `/api/transactions/${'A'.repeat(32)}`;
      for (const method of ['GET', 'POST'] as const) {
        const refused = await app.inject({
          method,
          url: intent,
          headers: { origin: 'https://evil.example.com' },
        });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ success: false, error: 'Origin not allowed' });
        // A listed origin gets past the guard: the unknown intent is then a 404.
        const passed = await app.inject({ method, url: intent, headers: { origin: ALLOWED } });
        expect(passed.statusCode).toBe(method === 'GET' ? 404 : 400);
      }
    });

    it('serves requests without an Origin (servers, platform proxies)', async () => {
      expect((await post(app, CALC)).statusCode).toBe(200);
    });
  });

  it('with STRICT_ORIGIN, refuses requests without an Origin', async () => {
    const app = await createTestApp({
      actions: ACTIONS,
      env: { ALLOWED_ORIGINS: ALLOWED, STRICT_ORIGIN: 'true' },
    });
    expect((await post(app, CALC)).statusCode).toBe(403);
    expect((await post(app, CALC, { origin: ALLOWED })).statusCode).toBe(200);
    await app.close();
  });

  it('without ALLOWED_ORIGINS, serves any origin', async () => {
    const app = await createTestApp({ actions: ACTIONS });
    const response = await post(app, CALC, { origin: 'https://anything.example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    await app.close();
  });

  it('refuses bad origin, proxy and limit settings at boot', async () => {
    await expect(createTestApp({ env: { STRICT_ORIGIN: 'maybe' } })).rejects.toThrow(
      /STRICT_ORIGIN/,
    );
    await expect(createTestApp({ env: { TRUST_PROXY: 'everyone' } })).rejects.toThrow(
      /TRUST_PROXY/,
    );
    await expect(createTestApp({ env: { RATE_LIMIT_SCOPE: 'planet' } })).rejects.toThrow(
      /RATE_LIMIT_SCOPE/,
    );
  });

  describe('user address required by the action', () => {
    let app: NestFastifyApplication;
    beforeAll(async () => {
      app = await createTestApp({ actions: ACTIONS });
    });
    afterAll(() => app.close());

    it('answers 400 in the transaction shape when no address is sent', async () => {
      const response = await post(app, '/api/test-transfer');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'x-user-address header is required',
        code: 'VALIDATION_ERROR',
        message: 'Connect a wallet to run this action',
        data: { invalidParams: ['userAddress'] },
      });
    });

    it.each([
      ['x-user-address header', { 'x-user-address': ADDRESS }, ''],
      ['x-wallet-address header', { 'x-wallet-address': ADDRESS }, ''],
      ['userAddress query parameter', {}, `?userAddress=${ADDRESS}`],
    ])('accepts the address from the %s', async (_, headers, query) => {
      expect((await post(app, `/api/test-transfer${query}`, headers)).statusCode).toBe(200);
    });

    it('keeps the calculator callable anonymously', async () => {
      expect((await post(app, CALC)).statusCode).toBe(200);
    });
  });
});
