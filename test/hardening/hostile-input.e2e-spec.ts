import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { createTestApp } from '../support/app.factory';
import { HostilePatternModule } from '../fixtures/hostile-pattern.fixture';

/**
 * One request must never stall the service. Before the fix, 20,000 digits then `x` in a number
 * blocked the event loop for 1.5 s and a megabyte for most of an hour, so these requests (and the
 * concurrent health checks) would not have answered within any test timeout: the margin between
 * the two outcomes is hours, not milliseconds.
 */
describe('Hostile input is refused in linear time while the service keeps answering', () => {
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp({
      env: { BODY_LIMIT_BYTES: String(4 * 1_048_576) },
      actions: [CalculatorModule, HostilePatternModule],
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  afterAll(() => app.close());

  const health = async (): Promise<number> => (await fetch(`${base}/health`)).status;

  it('answers 400 to a megabyte of digits then x in the body, and /health meanwhile', async () => {
    const digits = `${'1'.repeat(1_048_576)}x`;
    const [answer, live] = await Promise.all([
      fetch(`${base}/api/calculator`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ params: { operation: 'add', a: digits, b: 1 } }),
      }),
      health(),
    ]);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      success: false,
      error: 'a must be a valid number',
    });
    expect(live).toBe(200);
  });

  it.each([
    ['16 KiB', 16 * 1024],
    ['1 MiB', 1_048_576],
  ])('answers 400 to %s of digits then x in the query string', async (_, size) => {
    const digits = `${'9'.repeat(size)}x`;
    const [answer, live] = await Promise.all([
      app.inject({ method: 'POST', url: `/api/calculator?operation=add&a=1&b=${digits}` }),
      app.inject({ method: 'GET', url: '/health' }),
    ]);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ error: 'b must be a valid number' });
    expect(live.statusCode).toBe(200);
  });

  it("runs a team's catastrophic pattern on hostile text in linear time", async () => {
    const [answer, live] = await Promise.all([
      fetch(`${base}/api/nested-quantifier`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ params: { word: `${'a'.repeat(5_000)}!` } }),
      }),
      health(),
    ]);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'word has an invalid format' });
    expect(live).toBe(200);
  });

  it('still applies the pattern to text it matches', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: '/api/nested-quantifier',
      payload: { params: { word: 'a'.repeat(5_000) } },
    });
    expect(answer.statusCode).toBe(200);
  });
});
