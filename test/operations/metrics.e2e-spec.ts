import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { WeatherModule } from '../../src/actions/weather/weather.module';
import { MetricsServer } from '../../src/telemetry/metrics/metrics.server';
import { createTestApp, postJson } from '../support/app.factory';
import { httpGet } from '../support/http-client.helper';
import { parseExposition, type Sample, valueOf } from '../support/prometheus.helper';
import { ThrottlingFixturesModule } from '../fixtures/throttling.fixture';
import { FakeUpstream, reply } from '../support/upstream.server';

const FAMILIES = [
  'dynamic_action_requests_total',
  'dynamic_action_request_duration_seconds',
  'dynamic_action_rate_limited_total',
  'dynamic_action_upstream_requests_total',
  'dynamic_action_upstream_duration_seconds',
  'dynamic_action_cache_lookups_total',
  'dynamic_action_redis_up',
  'dynamic_action_in_flight_requests',
  'dynamic_action_intent_transitions_total',
  'dynamic_action_outcome_watcher_lag_seconds',
  // prom-client's default process and Node.js metrics
  'process_cpu_user_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
];

const LYON = reply.json({
  results: [{ name: 'Lyon', country: 'France', latitude: 45.75, longitude: 4.85 }],
});
const CURRENT = reply.json({
  current: { time: '2026-11-22T12:00', temperature_2m: 9, wind_speed_10m: 3, weather_code: 0 },
});

describe('Prometheus metrics on their own listener', () => {
  let upstream: FakeUpstream;
  let app: NestFastifyApplication;
  let metricsPort: number;
  let publicPort: number;

  beforeAll(async () => {
    upstream = await FakeUpstream.start();
    app = await createTestApp({
      actions: [CalculatorModule, WeatherModule, ThrottlingFixturesModule],
      env: {
        WEATHER_GEOCODING_URL: `${upstream.base}/geo`,
        WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
      },
    });
    await app.listen(0, '127.0.0.1');
    publicPort = (app.getHttpServer().address() as AddressInfo).port;
    const address = await app.get(MetricsServer).listen({ port: 0, host: '127.0.0.1' });
    metricsPort = address!.port;
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  const scrape = async (): Promise<{ text: string; samples: Sample[] }> => {
    const { status, headers, body } = await httpGet(metricsPort, '/metrics');
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: body, samples: parseExposition(body) };
  };

  it('counts a known sequence of answers: 200, 400, 429, upstream failure, cache miss and hit', async () => {
    const calc = (params: Record<string, unknown>): Promise<number> =>
      postJson(app, '/api/calculator', { params }).then((r) => r.status);
    const weather = (city: string): Promise<number> =>
      postJson(app, '/api/weather', { params: { city } }).then((r) => r.status);
    const tight = (): Promise<number> => postJson(app, '/api/tight').then((r) => r.status);

    expect(await calc({ operation: 'add', a: 1, b: 2 })).toBe(200);
    expect(await calc({ operation: 'add', a: 1 })).toBe(400);
    expect([await tight(), await tight(), await tight()]).toEqual([200, 200, 429]);
    upstream.route('/geo', reply.error(500));
    expect(await weather('Paris')).toBe(500);
    upstream.route('/geo', LYON).route('/forecast', CURRENT);
    expect(await weather('Lyon')).toBe(200);
    expect(await weather('lyon')).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/no/such/S3CRET?x=1' })).statusCode).toBe(404);

    const { text, samples } = await scrape();
    const requests = (action: string, status: string): number | undefined =>
      valueOf(samples, 'dynamic_action_requests_total', { action, mode: 'data', status });
    expect(requests('/api/calculator', '200')).toBe(1);
    expect(requests('/api/calculator', '400')).toBe(1);
    expect(requests('/api/tight', '200')).toBe(2);
    expect(requests('/api/tight', '429')).toBe(1);
    expect(requests('/api/weather', '500')).toBe(1);
    expect(requests('/api/weather', '200')).toBe(2);
    expect(
      valueOf(samples, 'dynamic_action_requests_total', {
        action: 'unknown',
        mode: 'none',
        status: '404',
      }),
    ).toBe(1);
    expect(
      valueOf(samples, 'dynamic_action_rate_limited_total', { action: '/api/tight', limit: 'ip' }),
    ).toBe(1);

    const upstreamCalls = (name: string, outcome: string): number | undefined =>
      valueOf(samples, 'dynamic_action_upstream_requests_total', { upstream: name, outcome });
    expect(upstreamCalls('weather_geocoding', 'status')).toBe(1);
    expect(upstreamCalls('weather_geocoding', 'ok')).toBe(1);
    expect(upstreamCalls('weather_forecast', 'ok')).toBe(1);
    expect(
      valueOf(samples, 'dynamic_action_upstream_duration_seconds_count', {
        upstream: 'weather_geocoding',
      }),
    ).toBe(2);

    const lookups = (result: string): number | undefined =>
      valueOf(samples, 'dynamic_action_cache_lookups_total', { result });
    expect([lookups('miss'), lookups('hit'), lookups('coalesced'), lookups('error')]).toEqual([
      2, 1, 0, 0,
    ]);

    const calculatorTimes = { action: '/api/calculator', mode: 'data' };
    expect(valueOf(samples, 'dynamic_action_request_duration_seconds_count', calculatorTimes)).toBe(
      2,
    );
    for (const le of ['0.001', '10', '+Inf']) {
      expect(
        valueOf(samples, 'dynamic_action_request_duration_seconds_bucket', {
          ...calculatorTimes,
          le,
        }),
      ).toBeDefined();
    }
    expect(valueOf(samples, 'dynamic_action_in_flight_requests')).toBe(0);
    expect(valueOf(samples, 'dynamic_action_redis_up')).toBe(-1); // no REDIS_URL: not configured, not "down";
    for (const family of FAMILIES) expect(text).toContain(`# TYPE ${family} `);

    // Labels are bounded: no raw URL, no upstream address.
    expect(text).not.toMatch(/no\/such|S3CRET|127\.0\.0\.1/);
  });

  it('is not reachable through the public port', async () => {
    for (const method of ['GET', 'POST']) {
      const { status, body } = await httpGet(publicPort, '/metrics', method);
      expect(status).toBe(404);
      expect(body).not.toContain('dynamic_action_');
    }
  });

  it('serves nothing but /metrics on its own port', async () => {
    const action = await httpGet(metricsPort, '/api/calculator', 'POST');
    expect(action.status).toBe(404);
    expect((await httpGet(metricsPort, '/metrics', 'POST')).status).toBe(405);
    expect((await httpGet(metricsPort, '/metrics?x=1')).status).toBe(200);
  });
});

describe('METRICS_PORT=0', () => {
  it('starts no metrics listener', async () => {
    const app = await createTestApp({ actions: [CalculatorModule], env: { METRICS_PORT: '0' } });
    expect(await app.get(MetricsServer).listen()).toBeUndefined();
    await app.close();
  });
});
