import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { once } from 'node:events';
import { connect } from 'node:net';
import { WeatherModule } from '../../src/actions/weather/weather.module';
import { ActionExceptionFilter } from '../../src/kit/action-exception.filter';
import { createTestApp, postJson } from '../support/app.factory';
import { KitFixturesModule } from '../fixtures/kit.fixture';
import { LogRecorder } from '../support/log.recorder';
import { closedPortUrl, FakeUpstream, reply } from '../support/upstream.server';

const FORGED = /^\s*FAKE LOG LINE/i;

/** Resolves once the exception filter has handled `n` errors in all (the spy counts them). */
async function filtered(spy: jest.SpyInstance, n: number): Promise<void> {
  while (spy.mock.calls.length < n) await new Promise(setImmediate);
}

describe('Logs an attacker cannot forge or flood', () => {
  let upstream: FakeUpstream;

  beforeAll(async () => {
    upstream = await FakeUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  describe('with the shared store down (Redis unreachable, requests allowed)', () => {
    let app: NestFastifyApplication;
    let logs: LogRecorder;

    beforeAll(async () => {
      const redis = (await closedPortUrl()).replace('http:', 'redis:');
      app = await createTestApp({
        actions: [WeatherModule, KitFixturesModule],
        env: {
          REDIS_URL: redis,
          RATE_LIMIT_ON_STORE_ERROR: 'allow',
          WEATHER_GEOCODING_URL: `${upstream.base}/geo`,
          WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
        },
      });
      logs = LogRecorder.install(app);
    });
    afterAll(() => app.close());
    beforeEach(() => logs.clear());

    it('does not let a newline in a city start a new log line', async () => {
      upstream.route('/geo', reply.error(500));
      const { status } = await postJson(app, '/api/weather', {
        params: { city: 'x\nFAKE LOG LINE\r\u001b[2Jcleared' },
      });
      expect(status).toBe(500);
      expect(logs.records.length).toBeGreaterThan(0);
      expect(logs.lines().filter((line) => FORGED.test(line))).toEqual([]);
      const codes = [...logs.records.map((r) => r.message).join(' ')].map((c) => c.charCodeAt(0));
      expect(codes.filter((code) => code < 0x20)).toEqual([]);
    });

    it('writes a bounded piece of a long request URL', async () => {
      const response = await app.inject({
        method: 'POST',
        url: `/api/data-broken?pad=${'p'.repeat(8000)}`,
      });
      expect(response.statusCode).toBe(500);
      const [line] = logs.at('error', 'ActionError');
      expect(line.message).toMatch(/^POST \/api\/data-broken\?pad=p+…\(\+\d+ chars\) failed: /);
      expect(line.message.length).toBeLessThan(600);
    });
  });

  describe('upstream failures', () => {
    let app: NestFastifyApplication;
    let logs: LogRecorder;

    beforeAll(async () => {
      app = await createTestApp({
        actions: [WeatherModule],
        env: {
          WEATHER_GEOCODING_URL: `${upstream.base}/geo`,
          WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
        },
      });
      logs = LogRecorder.install(app);
    });
    afterAll(() => app.close());

    it('logs 50 identical upstream failures once', async () => {
      upstream.route('/geo', reply.error(500));
      for (let i = 0; i < 50; i++) {
        const { status } = await postJson(app, '/api/weather', { params: { city: `Lyon ${i}` } });
        expect(status).toBe(500);
      }
      expect(upstream.count('/geo')).toBe(50);
      expect(logs.records).toEqual([
        expect.objectContaining({
          level: 'warn',
          context: 'WeatherService',
          message: 'Weather geocoding call failed for "lyon 0": Upstream answered HTTP 500',
        }),
      ]);
    });
  });

  describe('readiness while Redis is down and RATE_LIMIT_ON_STORE_ERROR=deny', () => {
    let app: NestFastifyApplication;
    let logs: LogRecorder;

    beforeAll(async () => {
      const redis = (await closedPortUrl()).replace('http:', 'redis:');
      app = await createTestApp({
        env: { REDIS_URL: redis, RATE_LIMIT_ON_STORE_ERROR: 'deny' },
      });
      logs = LogRecorder.install(app);
    });
    afterAll(() => app.close());

    it('logs 20 failing probes at most once, without a stack', async () => {
      for (let i = 0; i < 20; i++) {
        const response = await app.inject({ method: 'GET', url: '/health/ready' });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ success: false, statusCode: 503 });
      }
      expect(logs.records.filter((r) => r.context === 'ActionError').length).toBeLessThanOrEqual(1);
      expect(logs.withStack()).toEqual([]);
    });
  });

  describe('over a real socket', () => {
    let app: NestFastifyApplication;
    let logs: LogRecorder;
    let port: number;
    let filter: jest.SpyInstance;

    beforeAll(async () => {
      // Before the app is built: Nest binds the filter's method when it builds the app.
      filter = jest.spyOn(ActionExceptionFilter.prototype, 'catch');
      app = await createTestApp({ actions: [KitFixturesModule] });
      logs = LogRecorder.install(app);
      await app.listen(0, '127.0.0.1');
      port = (app.getHttpServer().address() as { port: number }).port;
    });
    afterAll(async () => {
      await app.close();
      filter.mockRestore();
    });

    /** Announces 100 000 bytes, sends 1 KB of them, then drops the connection. */
    async function abandonUpload(): Promise<void> {
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      const head =
        'POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n';
      await new Promise<void>((resolve, reject) =>
        socket.write(head + '{"word":"' + 'x'.repeat(1024), (e) => (e ? reject(e) : resolve())),
      );
      socket.destroy();
      await once(socket, 'close');
    }

    it('logs 100 abandoned uploads below error level and without a stack', async () => {
      for (let i = 0; i < 100; i++) await abandonUpload();
      await filtered(filter, 100);
      expect(logs.at('error')).toEqual([]);
      expect(logs.withStack()).toEqual([]);
      // One debug line for the lot: the repeats are held back for a minute.
      expect(logs.records).toEqual([
        expect.objectContaining({
          level: 'debug',
          context: 'ActionError',
          message: 'POST /api/echo: the client closed the connection mid-request',
        }),
      ]);
    });
  });
});
