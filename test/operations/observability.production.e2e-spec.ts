import { httpGet, httpPost } from '../support/http-client.helper';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp.receiver';
import {
  buildProduction,
  type ProductionBuild,
  ProductionServer,
} from '../support/production.server';
import { parseExposition, valueOf } from '../support/prometheus.helper';
import Redis from 'ioredis';
import {
  deleteKeys,
  describeWithRedis,
  freePort,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';
import { FakeUpstream, reply } from '../support/upstream.server';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const TRACEPARENT = `00-${TRACE_ID}-b7ad6b7169203331-01`;
const SERVER = 2;
const CLIENT = 3;

/**
 * The production build as the container runs it (`node dist/main.js`): tracing is loaded by
 * main.ts itself before the application, so the ioredis instrumentation patches the client; the
 * spans reach a collector over OTLP; stdout holds JSON lines only; metrics answer on their port.
 */
describeWithRedis()('Observability of the production build', () => {
  let build: ProductionBuild;
  let server: ProductionServer | undefined;
  let collector: OtlpReceiver;
  let upstream: FakeUpstream;

  beforeAll(async () => {
    [build, collector, upstream] = await Promise.all([
      buildProduction(),
      OtlpReceiver.start(),
      FakeUpstream.start(),
    ]);
  }, 180_000);
  // The shared test Redis: this run's keys only, deleted afterwards.
  const prefix = runKeyPrefix('obs');
  afterAll(async () => {
    server?.stop();
    const admin = new Redis(REDIS_TEST_URL);
    await Promise.all([build?.remove(), collector?.close(), upstream?.close()]);
    await deleteKeys(admin, prefix);
    await admin.quit();
  });

  it('exports the request, its upstream calls and its Redis commands in one trace; logs JSON; serves metrics', async () => {
    upstream.route(
      '/geo',
      reply.json({
        results: [{ name: 'Oslo', country: 'Norway', latitude: 59.9, longitude: 10.7 }],
      }),
    );
    upstream.route(
      '/forecast',
      reply.json({
        current: {
          time: '2026-11-22T12:00',
          temperature_2m: 1,
          wind_speed_10m: 3,
          weather_code: 0,
        },
      }),
    );
    const [port, metricsPort] = [await freePort(), await freePort()];
    server = await ProductionServer.start(build.main, port, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'actions-under-test',
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_IP_MAX: '1000000',
      WEATHER_GEOCODING_URL: `${upstream.base}/geo?key=S3CRET`,
      WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
    });

    const answer = await httpPost(
      port,
      '/api/weather',
      { params: { city: `Oslo ${Date.now()}` } },
      { traceparent: TRACEPARENT },
    );
    expect(answer.status).toBe(200);
    const requestId = String(answer.headers['x-request-id']);

    // Metrics on their own port, not on the public one.
    const metrics = await httpGet(metricsPort, '/metrics');
    expect(metrics.status).toBe(200);
    const samples = parseExposition(metrics.body);
    expect(
      valueOf(samples, 'dynamic_action_requests_total', {
        action: '/api/weather',
        mode: 'data',
        status: '200',
      }),
    ).toBe(1);
    expect(valueOf(samples, 'dynamic_action_redis_up')).toBe(1);
    expect((await httpGet(port, '/metrics')).status).toBe(404);

    // SIGTERM: the application closes, the spans still buffered are exported, exit 0.
    server.signal('SIGTERM');
    expect(await server.exited).toBe(0);

    const trace = await collector.waitFor((spans) => {
      const found = spans.filter((span) => span.traceId === TRACE_ID);
      return found.some((span) => span.kind === SERVER) ? found : undefined;
    });
    expect(collector.paths[0]).toBe('POST /v1/traces application/json');
    const [request] = trace.filter((span) => span.kind === SERVER);
    expect(request).toMatchObject({
      name: 'POST /api/weather',
      parentSpanId: 'b7ad6b7169203331',
      attributes: expect.objectContaining({ 'http.route': '/api/weather' }),
    });
    const childrenOf = (parent: ReceivedSpan): ReceivedSpan[] =>
      trace.filter((span) => span.parentSpanId === parent.spanId);
    const children = childrenOf(request);
    const http = children.filter((span) => span.scope.includes('undici'));
    expect(http.map((span) => span.attributes['dynamic_action.upstream'])).toEqual([
      'weather_geocoding',
      'weather_forecast',
    ]);
    expect(http.every((span) => span.kind === CLIENT)).toBe(true);
    // Rate limits and the cache are in Redis: the instrumentation saw their commands.
    const redis = children.filter((span) => span.scope.includes('ioredis'));
    expect(redis.length).toBeGreaterThanOrEqual(3);
    for (const command of redis) {
      expect(command.attributes['db.system.name']).toBe('redis');
      // The command only: its keys hold addresses and user text.
      expect(command.attributes['db.query.text']).toMatch(/^[a-z]+$/);
    }
    expect(JSON.stringify(trace)).not.toMatch(/S3CRET|oslo/i);

    // Every line the process wrote is one JSON object, none with colour codes.
    const lines = server.log.trimEnd().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(server.log).not.toContain('\u001b[');
    expect(parsed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 'info', msg: expect.stringMatching(/^Listening on /) }),
        expect.objectContaining({ reqId: requestId, route: '/api/weather', status: 200 }),
      ]),
    );
  }, 60_000);
});
