import { Logger } from '@nestjs/common';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { createTestApp } from '../support/app.factory';

const ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

/** The boot, in production, with and without an action that declares user: 'verified'. */
describe('AUTH_SECRET at boot (production)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('boots a verified action without AUTH_SECRET, warns naming it, and closes sign-in (503)', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const app = await createTestApp({
      env: { NODE_ENV: 'production' },
      actions: [MyTransactionsModule, CalculatorModule],
    });
    try {
      expect(warn.mock.calls.flat().join('\n')).toMatch(/AUTH_SECRET is unset in production/);
      const nonce = await app.inject({ method: 'GET', url: '/api/auth/nonce' });
      expect({ status: nonce.statusCode, code: nonce.json().data?.code }).toEqual({
        status: 503,
        code: 'SIGN_IN_UNAVAILABLE',
      });
      expect(nonce.body).not.toMatch(/AUTH_SECRET/); // production texts name no setting
      const mine = await app.inject({
        method: 'POST',
        url: '/api/my-transactions',
        headers: { 'content-type': 'application/json', 'x-user-address': ADDRESS },
        payload: '{}',
      });
      expect(mine.statusCode).toBe(401);
      const calculator = await app.inject({
        method: 'POST',
        url: '/api/calculator',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ params: { operation: 'add', a: 1, b: 2 } }),
      });
      expect(calculator.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('signs in with one; without one, other actions boot with no warning and sign-in stays closed', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const [withSecret, without] = await Promise.all([
      createTestApp({
        env: {
          NODE_ENV: 'production',
          AUTH_SECRET: 'OEaaSCHzT7T4ADcJ1jzbMuSgSw6iR3S8YMMft0IVMyQ=',
        },
        actions: [MyTransactionsModule],
      }),
      createTestApp({ env: { NODE_ENV: 'production' }, actions: [CalculatorModule] }),
    ]);
    try {
      expect(warn.mock.calls.flat().join('\n')).not.toMatch(/AUTH_SECRET/);
      const status = async (app: typeof without): Promise<number> =>
        (await app.inject({ method: 'GET', url: '/api/auth/nonce' })).statusCode;
      expect([await status(withSecret), await status(without)]).toEqual([200, 503]);
    } finally {
      await Promise.all([withSecret.close(), without.close()]);
    }
  });
});
