import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { WeatherModule } from '../../src/actions/weather/weather.module';
import { describeActionConformance } from '../../src/testing';
import { createTestApp, type InjectedJson, postJson } from '../support/app.factory';
import { closedPortUrl, FakeUpstream, reply, type UpstreamReply } from '../support/upstream.server';

const TIMEOUT_MS = 300;

const place = (name: string): UpstreamReply =>
  reply.json({
    results: [{ id: 1, name, country: 'France', latitude: 48.85341, longitude: 2.3488 }],
  });
const NO_PLACE = reply.json({ generationtime_ms: 0.4 });
const CURRENT = reply.json({
  latitude: 48.86,
  longitude: 2.35,
  current: { time: '2026-11-22T12:00', temperature_2m: 12.3, wind_speed_10m: 4.5, weather_code: 3 },
});

/** Only this action is served, so the suite does not depend on other teams' configuration. */
const startApp = (geo: string, forecast: string): Promise<NestFastifyApplication> =>
  createTestApp({
    actions: [WeatherModule],
    env: {
      WEATHER_GEOCODING_URL: geo,
      WEATHER_FORECAST_URL: forecast,
      EXTERNAL_TIMEOUT_MS: String(TIMEOUT_MS),
    },
  });

/** The upstream's address must not appear in what the user sees (metadata is generated, so the
 * port is looked for elsewhere: a timestamp could contain its digits by chance). */
function expectNoUpstreamAddress(body: Record<string, unknown>, port: number | string): void {
  const text = JSON.stringify(body);
  expect(text).not.toContain('127.0.0.1');
  expect(text).not.toMatch(/https?:/);
  expect(JSON.stringify({ ...body, metadata: undefined })).not.toContain(String(port));
}

describe('Weather action (external API through the shared timeout and cache)', () => {
  let upstream: FakeUpstream;
  let app: NestFastifyApplication;

  const ask = (city: unknown): Promise<InjectedJson> =>
    postJson(app, '/api/weather', { params: { city } });

  beforeAll(async () => {
    upstream = await FakeUpstream.start();
    app = await startApp(`${upstream.base}/geo`, `${upstream.base}/forecast`);
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });
  beforeEach(() => upstream.reset());

  // A city no other test asks for: answers are cached, and the other tests expect fresh ones.
  describe('with the city found upstream', () => {
    beforeEach(() => {
      upstream.route('/geo', place('Conformance'));
      upstream.route('/forecast', CURRENT);
    });
    describeActionConformance(() => app, '/api/weather', {
      valid: [{ params: { city: 'Conformance' } }],
    });
  });

  it('answers the current weather of a city found upstream', async () => {
    upstream.route('/geo', place('Paris'));
    upstream.route('/forecast', CURRENT);
    const { status, body } = await ask('Paris');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      statusCode: 200,
      data: {
        city: 'Paris',
        country: 'France',
        latitude: 48.85341,
        longitude: 2.3488,
        temperature: 12.3,
        windSpeed: 4.5,
        condition: 'Overcast',
        observedAt: '2026-11-22T12:00:00.000Z',
      },
      metadata: { cached: false, requestId: expect.any(String) },
    });
    expect(body.message).toContain('Paris');
    const [geo, forecast] = upstream.requests;
    expect(Object.fromEntries(geo.query)).toMatchObject({
      name: 'paris',
      count: '1',
      language: 'en',
      format: 'json',
    });
    expect(forecast.path).toBe('/forecast');
    expect(Object.fromEntries(forecast.query)).toMatchObject({
      latitude: '48.85341',
      longitude: '2.3488',
      current: 'temperature_2m,wind_speed_10m,weather_code',
      timezone: 'UTC',
    });
  });

  it.each([{ params: {} }, { params: { city: '   ' } }, {}])(
    'refuses a missing city with 400 naming it (%j)',
    async (payload) => {
      const { status, body } = await postJson(app, '/api/weather', payload);
      expect(status).toBe(400);
      expect(body).toMatchObject({
        success: false,
        error: 'city is required',
        data: { invalidParams: ['city'] },
      });
      expect(upstream.count()).toBe(0);
    },
  );

  it('answers 404 naming a city the geocoder does not know', async () => {
    upstream.route('/geo', NO_PLACE);
    const { status, body } = await ask('Atlantis');
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, statusCode: 404 });
    expect(body.error).toContain('Atlantis');
    expect(body.message).toContain('Atlantis');
    expect(upstream.count('/forecast')).toBe(0);
  });

  it.each<[string, string, UpstreamReply]>([
    ['geocoding answers 500', '/geo', reply.error(500)],
    ['geocoding answers malformed JSON', '/geo', reply.malformed()],
    ['geocoding answers JSON of another shape', '/geo', reply.json({ results: 'nope' })],
    ['forecast answers 503', '/forecast', reply.error(503)],
    ['forecast answers malformed JSON', '/forecast', reply.malformed()],
    ['forecast answers without current weather', '/forecast', reply.json({ hourly: {} })],
  ])('answers 500 "weather service failed" when %s', async (_case, path, failure) => {
    upstream.route('/geo', place('Lyon')).route('/forecast', CURRENT).route(path, failure);
    const { status, body } = await ask('Lyon');
    expect(status).toBe(500);
    expect(body).toMatchObject({ success: false, statusCode: 500 });
    expect(body.error).toMatch(/weather service failed/i);
    expect(upstream.count(path)).toBe(1);
    expectNoUpstreamAddress(body, upstream.port);
  });

  it.each(['/geo', '/forecast'])(
    'answers 500 "timed out" in about EXTERNAL_TIMEOUT_MS when %s is slow, aborting the call',
    async (path) => {
      upstream.route('/geo', place('Nice')).route('/forecast', CURRENT);
      upstream.route(path, reply.slow(TIMEOUT_MS * 20, path === '/geo' ? place('Nice') : CURRENT));
      const started = performance.now();
      const { status, body } = await ask('Nice');
      const elapsed = performance.now() - started;
      expect(status).toBe(500);
      expect(body.error).toMatch(/weather service timed out/i);
      expectNoUpstreamAddress(body, upstream.port);
      // Generous margins: the point is "bounded by the timeout", not a benchmark.
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS / 2);
      expect(elapsed).toBeLessThan(TIMEOUT_MS * 5);
      // The upstream sees its connection closed: the call was aborted, not left running.
      await upstream.waitForAborted(1);
      expect(upstream.aborted).toBe(1);
    },
  );

  it('makes one upstream call for two requests within the TTL, whatever the case and spaces', async () => {
    upstream.route('/geo', place('Lille')).route('/forecast', CURRENT);
    const first = await ask('Lille');
    const second = await ask('  LILLE ');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.metadata).toMatchObject({ cached: false });
    expect(second.body.metadata).toMatchObject({ cached: true });
    expect(second.body.data).toEqual(first.body.data);
    expect(upstream.count('/geo')).toBe(1);
    expect(upstream.count('/forecast')).toBe(1);
  });

  it('makes one upstream call for ten concurrent requests for the same city', async () => {
    upstream.route('/geo', reply.slow(50, place('Metz'))).route('/forecast', CURRENT);
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask('Metz')));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const cached = answers.map((a) => (a.body.metadata as { cached: boolean }).cached);
    expect(cached.filter((c) => !c)).toHaveLength(1);
    expect(upstream.count('/geo')).toBe(1);
    expect(upstream.count('/forecast')).toBe(1);
  });

  it('does not cache errors: a failure then a recovered upstream gives a success', async () => {
    upstream.route('/geo', reply.error(500)).route('/forecast', CURRENT);
    expect((await ask('Brest')).status).toBe(500);
    upstream.route('/geo', place('Brest'));
    const { status, body } = await ask('Brest');
    expect(status).toBe(200);
    expect(body.metadata).toMatchObject({ cached: false });
    expect(upstream.count('/geo')).toBe(2);
  });

  it('does not cache "not found" either', async () => {
    upstream.route('/geo', NO_PLACE).route('/forecast', CURRENT);
    expect((await ask('Newtown')).status).toBe(404);
    upstream.route('/geo', place('Newtown'));
    expect((await ask('Newtown')).status).toBe(200);
  });

  it('answers 500 "weather service failed" when the upstream refuses connections', async () => {
    const closed = await closedPortUrl();
    const down = await startApp(`${closed}/geo`, `${closed}/forecast`);
    try {
      const { status, body } = await postJson(down, '/api/weather', { params: { city: 'Paris' } });
      expect(status).toBe(500);
      expect(body.error).toMatch(/weather service failed/i);
      const text = JSON.stringify(body);
      expect(text).not.toContain('127.0.0.1');
      expect(JSON.stringify({ ...body, metadata: undefined })).not.toContain(new URL(closed).port);
    } finally {
      await down.close();
    }
  });

  it('refuses a bad upstream URL at boot', async () => {
    await expect(startApp('not a url', `${upstream.base}/forecast`)).rejects.toThrow(
      /WEATHER_GEOCODING_URL/,
    );
  });
});
