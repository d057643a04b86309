import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { WeatherModule } from '../../src/actions/weather/weather.module';
import { createTestApp } from '../support/app.factory';
import { CountingServer, failWith, neverAnswer, redirectTo } from '../support/counting.server';

const TIMEOUT_MS = 2000;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** Milliseconds from the start of the burst to the answer. */
  ms: number;
}

async function listen(app: NestFastifyApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

const post = async (
  base: string,
  path: string,
  params: Record<string, unknown>,
  started = performance.now(),
): Promise<Answer> => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ params }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body, ms: performance.now() - started };
};

const weatherEnv = (upstream: string, env: Record<string, string>): Record<string, string> => ({
  WEATHER_GEOCODING_URL: `${upstream}/geo`,
  WEATHER_FORECAST_URL: `${upstream}/forecast`,
  EXTERNAL_TIMEOUT_MS: String(TIMEOUT_MS),
  ...env,
});

describe('Calls to an upstream that never answers', () => {
  let upstream: CountingServer;
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    upstream = await CountingServer.start(neverAnswer);
    app = await createTestApp({
      actions: [CalculatorModule, WeatherModule],
      env: weatherEnv(upstream.base, {
        EXTERNAL_MAX_CONCURRENCY: '2',
        EXTERNAL_MAX_QUEUE: '2',
        // Timeouts open the circuit too; this suite looks at the slots only.
        EXTERNAL_CIRCUIT_THRESHOLD: '1000',
      }),
    });
    base = await listen(app);
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  it('holds at most EXTERNAL_MAX_CONCURRENCY sockets, refuses the overflow at once, ends the rest by the timeout', async () => {
    const started = performance.now();
    // Different cities: the shared cache would otherwise merge them into one call.
    const burst = Array.from({ length: 10 }, (_, i) =>
      post(base, '/api/weather', { city: `City ${i}` }, started),
    );
    await upstream.until(() => upstream.requests === 2);

    const calculator = await post(base, '/api/calculator', { operation: 'add', a: 1, b: 2 });
    expect(calculator.status).toBe(200);
    expect((calculator.body.data as { result: number }).result).toBe(3);
    // While the two calls stall: two sockets, nothing else reached the upstream.
    expect([upstream.liveSockets, upstream.requests]).toEqual([2, 2]);

    const answers = await Promise.all(burst);
    const busy = answers.filter((a) => a.status === 503);
    const waited = answers.filter((a) => a.status !== 503);
    expect(busy).toHaveLength(6);
    for (const { body } of busy) {
      expect(body).toMatchObject({
        success: false,
        statusCode: 503,
        error: 'Too many calls are waiting for an external service',
        data: { code: 'UPSTREAM_BUSY' },
      });
      expect(JSON.stringify(body)).not.toContain('127.0.0.1');
    }
    // Two held the slots and two waited for them: all four end at their deadline, which
    // counts the wait, with a generous margin (the upstream never answers at all).
    expect(waited).toHaveLength(4);
    for (const { status, body, ms } of waited) {
      expect(status).toBe(500);
      expect(body.error).toBe('The weather service timed out');
      expect(ms).toBeLessThan(TIMEOUT_MS * 3);
    }
    // The refusals came first, without waiting for anything.
    expect(Math.max(...busy.map((a) => a.ms))).toBeLessThan(Math.min(...waited.map((a) => a.ms)));
    // Only the two slots and the two queued calls ever reached the upstream. (Its own count of
    // open requests is not compared to 2 here: a slot is freed once the client has aborted, and
    // on a loaded machine the next call can arrive before the server has seen that close.)
    expect(upstream.requests).toBeLessThanOrEqual(4);
  });
});

describe('Calls to an upstream that keeps failing', () => {
  let upstream: CountingServer;
  let app: NestFastifyApplication;
  let base: string;
  const COOLDOWN_MS = 60_000;

  beforeAll(async () => {
    upstream = await CountingServer.start(failWith(503));
    app = await createTestApp({
      actions: [WeatherModule],
      env: weatherEnv(upstream.base, {
        EXTERNAL_CIRCUIT_THRESHOLD: '3',
        EXTERNAL_CIRCUIT_COOLDOWN_MS: String(COOLDOWN_MS),
      }),
    });
    base = await listen(app);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app.close();
    await upstream.close();
  });

  it('opens the circuit after EXTERNAL_CIRCUIT_THRESHOLD failures, then answers 503 without calling; a probe goes through after the cool-down', async () => {
    for (let i = 0; i < 3; i++) {
      const failed = await post(base, '/api/weather', { city: `Failing ${i}` });
      expect([failed.status, failed.body.error]).toEqual([500, 'The weather service failed']);
    }
    expect(upstream.requests).toBe(3);

    const refused = await post(base, '/api/weather', { city: 'Paris' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({
      success: false,
      statusCode: 503,
      error: 'An external service keeps failing; calls to it are paused',
      data: { code: 'UPSTREAM_UNAVAILABLE' },
    });
    expect(upstream.requests).toBe(3);

    // The cool-down passes (the clock is moved rather than waited for); the upstream is back.
    const now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now + COOLDOWN_MS + 1);
    upstream.handler = (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const probe = await post(base, '/api/weather', { city: 'Atlantis' });
    expect(probe.status).toBe(404);
    expect(upstream.requests).toBe(4);
    // The probe closed the circuit: calls go through again.
    expect((await post(base, '/api/weather', { city: 'Lemuria' })).status).toBe(404);
    expect(upstream.requests).toBe(5);
  });
});

describe('An upstream that redirects', () => {
  let elsewhere: CountingServer;
  let upstream: CountingServer;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    elsewhere = await CountingServer.start((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}'),
    );
    upstream = await CountingServer.start(redirectTo(`${elsewhere.base}/geo`));
    app = await createTestApp({ actions: [WeatherModule], env: weatherEnv(upstream.base, {}) });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
    await elsewhere.close();
  });

  it('is refused, and the host it points to sees no request', async () => {
    const answer = await post(await listen(app), '/api/weather', { city: 'Paris' });
    expect([answer.status, answer.body.error]).toEqual([500, 'The weather service failed']);
    expect(upstream.requests).toBe(1);
    expect(elsewhere.requests).toBe(0);
  });
});
