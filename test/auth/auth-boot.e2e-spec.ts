import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { createTestApp } from '../support/app.factory';

/** The boot, in production, with and without an action that declares user: 'verified'. */
describe('AUTH_SECRET at boot (production)', () => {
  it('refuses to boot a verified action without AUTH_SECRET, naming it', async () => {
    await expect(
      createTestApp({ env: { NODE_ENV: 'production' }, actions: [MyTransactionsModule] }),
    ).rejects.toThrow(/AUTH_SECRET is required in production/);
  });

  it('boots it with one, and boots other actions without one', async () => {
    const apps = await Promise.all([
      createTestApp({
        env: { NODE_ENV: 'production', AUTH_SECRET: 'a production key of 32 bytes or more' },
        actions: [MyTransactionsModule],
      }),
      createTestApp({ env: { NODE_ENV: 'production' }, actions: [CalculatorModule] }),
    ]);
    for (const app of apps) {
      expect((await app.inject({ method: 'GET', url: '/api/auth/nonce' })).statusCode).toBe(200);
      await app.close();
    }
  });
});
