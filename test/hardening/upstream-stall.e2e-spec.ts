import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { WeatherModule } from '../../src/actions/weather/weather.module';
import { createTestApp } from '../support/app.factory';
import { FakeUpstream, reply } from '../support/upstream.server';

// Long enough that a loaded machine answers the calculator before any stalled request's deadline
// (at 1 s, a busy CI's calculator came back after them).
const TIMEOUT_MS = 5000;

describe('An upstream that stalls', () => {
  let upstream: FakeUpstream;
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    upstream = await FakeUpstream.start();
    // The geocoder never answers within the timeout.
    upstream.route('/geo', reply.slow(TIMEOUT_MS * 25, reply.json({ results: [] })));
    app = await createTestApp({
      actions: [CalculatorModule, WeatherModule],
      env: {
        WEATHER_GEOCODING_URL: `${upstream.base}/geo`,
        WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
        EXTERNAL_TIMEOUT_MS: String(TIMEOUT_MS),
      },
    });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  const post = (path: string, params: Record<string, unknown>): Promise<Response> =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params }),
    });

  it(
    'ends stalled requests at the timeout while other actions keep answering',
    async () => {
      let settled = 0;
      const started = performance.now();
      const stalled = Array.from({ length: 20 }, (_, i) =>
        post('/api/weather', { city: `City ${i}` }).then(async (r) => {
          settled++;
          return {
            status: r.status,
            body: (await r.json()) as Record<string, unknown>,
            ms: performance.now() - started,
          };
        }),
      );

      const calculator = await post('/api/calculator', { operation: 'add', a: 1, b: 2 });
      expect(calculator.status).toBe(200);
      expect(((await calculator.json()) as { data: { result: number } }).data.result).toBe(3);
      // The event loop answered the calculator while every stalled request was still waiting.
      expect(settled).toBe(0);

      const answers = await Promise.all(stalled);
      for (const { status, body, ms } of answers) {
        expect(status).toBe(500);
        expect(body.error).toMatch(/timed out/);
        // Bounded by the timeout (generous margin; the stall itself lasts 25 timeouts).
        expect(ms).toBeLessThan(TIMEOUT_MS * 10);
      }
      // Every call the geocoder received is abandoned by the service. Only EXTERNAL_MAX_CONCURRENCY
      // (16) go out at once; one still waiting for a slot at its deadline is never sent, which
      // on a loaded machine some are, so the count waited for is what arrived, not 20.
      const received = upstream.requests.filter((r) => r.path === '/geo').length;
      expect(received).toBeGreaterThanOrEqual(16);
      await upstream.waitForAborted(received);
      // Above the bound asserted on each answer, so a slow machine fails on it, not on Jest's 5 s.
    },
    TIMEOUT_MS * 12,
  );
});
