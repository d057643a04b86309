import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { IN_PROCESS_HEADER } from '../../src/kit/in-process-call';
import { createTestApp, postJson } from '../support/app.factory';

const USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/**
 * Under STRICT_ORIGIN a request with no Origin is refused; a blink's in-process call to its
 * action has none, and is let through by the mark only the service knows, not by a header
 * anyone can send.
 */
describe('Blinks under STRICT_ORIGIN', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({
      env: { STRICT_ORIGIN: 'true', ALLOWED_ORIGINS: 'https://app.sherry.social' },
      actions: [CalculatorModule],
    });
  });
  afterAll(() => app.close());

  const params = { operation: 'add', a: 1, b: 2 };

  it('refuses the action itself without an Origin, or with a guessed mark', async () => {
    expect((await postJson(app, '/api/calculator', { params })).status).toBe(403);
    const guessed = await postJson(
      app,
      '/api/calculator',
      { params },
      { [IN_PROCESS_HEADER]: 'x' },
    );
    expect(guessed.status).toBe(403);
  });

  it('runs the action through its blink from any origin, or none', async () => {
    const origins: Record<string, string>[] = [{}, { origin: 'https://elsewhere.example' }];
    for (const headers of origins) {
      const { status, body } = await postJson(
        app,
        '/api/blinks/calculator?operation=add&a=1&b=2',
        { account: USER },
        headers,
      );
      expect([status, body]).toEqual([
        200,
        { type: 'post', message: expect.stringContaining('3') },
      ]);
    }
  });
});
