import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ActionGetResponse } from '@solana/actions-spec';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { createTestApp, postJson } from '../support/app.factory';
import { testLogs } from '../support/log-capture.helper';

const USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const INTENT = 'A'.repeat(32);
const HASH = `0x${'ab'.repeat(32)}`;

describe('BLINKS=off', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ env: { BLINKS: 'off' }, actions: [CalculatorModule] });
  }, 60_000);
  afterAll(() => app.close());

  it('serves no blink route: each answers 404', async () => {
    const answers = await Promise.all([
      app.inject({ method: 'GET', url: '/api/blinks/calculator' }),
      postJson(app, '/api/blinks/calculator?operation=add&a=1&b=2', { account: USER }),
      postJson(app, `/api/blinks/calculator/next/${INTENT}`, { account: USER, signature: HASH }),
      postJson(app, `/api/blinks/calculator/completed/${INTENT}`, {
        account: USER,
        signature: HASH,
      }),
    ]);
    expect(answers.map((a) => ('statusCode' in a ? a.statusCode : a.status))).toEqual([
      404, 404, 404, 404,
    ]);
  });

  it('answers an empty actions.json, which Dialect’s client reads as no blink', async () => {
    const res = await app.inject({ method: 'GET', url: '/actions.json' });
    expect([res.statusCode, res.json()]).toEqual([200, { rules: [] }]);
    expect(res.headers['x-action-version']).toBeUndefined();
  });

  it('documents no blink route in OpenAPI', async () => {
    const { paths } = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, unknown>;
    }>();
    const blinkPaths = Object.keys(paths).filter(
      (path) => path.startsWith('/api/blinks') || path === '/actions.json',
    );
    expect(blinkPaths).toEqual([]);
  });

  it('leaves the platform’s routes unchanged', async () => {
    const { status, body } = await postJson(app, '/api/calculator', {
      params: { operation: 'add', a: 1, b: 2 },
    });
    expect([status, body.data]).toEqual([200, expect.objectContaining({ result: 3 })]);
  });
});

/**
 * In production a Host header is any client's to write: a blink's icon is built only on
 * PUBLIC_BASE_URL there, and left out without it (the boot says so). Development keeps the Host.
 */
describe('Blink icons in production', () => {
  const iconOf = async (env: Record<string, string>): Promise<string | undefined> => {
    const app = await createTestApp({ env, actions: [CalculatorModule] });
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/api/blinks/calculator',
        headers: { host: 'attacker.example' },
      });
      expect(res.statusCode).toBe(200);
      return res.json<Partial<ActionGetResponse>>().icon;
    } finally {
      await app.close();
    }
  };

  it('leaves the icon out without PUBLIC_BASE_URL, and says so at boot', async () => {
    expect(await iconOf({ NODE_ENV: 'production' })).toBeUndefined();
    const warned = testLogs
      .lines()
      .filter((line) => line.level === 'warn' && line.context === 'Blinks');
    expect(warned.map((line) => line.msg)).toContainEqual(
      expect.stringMatching(/^PUBLIC_BASE_URL is not set: blink icons/),
    );
  });

  it('builds it on PUBLIC_BASE_URL, never on the Host', async () => {
    const icon = await iconOf({
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: 'https://actions.example.com',
    });
    expect(icon).toMatch(/^https:\/\/actions\.example\.com\/icons\//);
  });

  it('builds it on the request’s Host outside production', async () => {
    expect(await iconOf({})).toMatch(/^http:\/\/attacker\.example\/icons\//);
  });
});
