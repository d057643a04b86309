import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { PortfolioModule } from '../../src/actions/portfolio/portfolio.module';
import { WeatherModule } from '../../src/actions/weather/weather.module';
import { createTestApp, postJson } from '../support/app.factory';
import { CountingServer, failWith } from '../support/counting.server';
import { type LogLine, testLogs } from '../support/log-capture.helper';
import { parseAnswer, RawClient } from '../support/raw-http.helper';
import { FAKE, fakeChainFile } from '../support/rpc-node.server';
import { FakeUpstream, reply } from '../support/upstream.server';

const CALCULATOR = '/api/calculator';

/** The access line of the answer that carried this x-request-id. */
function accessLine(headers: Record<string, unknown>): LogLine {
  const id = headers['x-request-id'];
  expect(typeof id).toBe('string');
  const line = testLogs.accessLine(id as string);
  if (!line) throw new Error(`no access line for ${String(id)}:\n${testLogs.raw().join('')}`);
  return line;
}

describe('Logs: JSON lines carrying the request id', () => {
  let upstream: FakeUpstream;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    upstream = await FakeUpstream.start();
    app = await createTestApp({
      actions: [CalculatorModule, WeatherModule],
      env: {
        WEATHER_GEOCODING_URL: `${upstream.base}/geo`,
        WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.reset();
    testLogs.clear();
  });

  it('writes one access line per request: id, method, declared route, mode, status, duration, size, IP', async () => {
    const ok = await postJson(app, `${CALCULATOR}?debug=S3CRET`, {
      params: { operation: 'add', a: 1, b: 2 },
    });
    expect(ok.status).toBe(200);
    const line = accessLine(ok.headers);
    expect(line).toEqual({
      level: 'info',
      time: expect.any(String),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: ok.headers['x-request-id'],
      method: 'POST',
      route: CALCULATOR,
      mode: 'data',
      status: 200,
      durationMs: expect.any(Number),
      bytes: Number(ok.headers['content-length']),
      ip: '127.0.0.1',
      msg: 'request completed',
    });
    expect(line.durationMs).toBeGreaterThan(0);
    // The route is the declaration's, not the URL the client wrote.
    expect(testLogs.raw().join('')).not.toContain('S3CRET');
  });

  it("adds the error code on failures, and uses the client's own x-request-id", async () => {
    const bad = await postJson(
      app,
      CALCULATOR,
      { params: { operation: 'add', a: 1 } },
      { 'x-request-id': 'client-chosen-id.1' },
    );
    expect(bad.status).toBe(400);
    expect(bad.headers['x-request-id']).toBe('client-chosen-id.1');
    expect(accessLine(bad.headers)).toMatchObject({
      reqId: 'client-chosen-id.1',
      route: CALCULATOR,
      status: 400,
      errorCode: 'VALIDATION_ERROR',
    });
  });

  it('gives every path no route matched one line without its URL', async () => {
    const response = await app.inject({ method: 'GET', url: '/no/such/place?token=S3CRET' });
    expect(response.statusCode).toBe(404);
    const line = accessLine(response.headers);
    expect(line).toMatchObject({ method: 'GET', status: 404, errorCode: 'NOT_FOUND' });
    expect(line).toHaveProperty('route', 'unknown');
    expect(testLogs.raw().join('')).not.toMatch(/no\/such|S3CRET/);
  });

  it("carries the request's id on the lines a service writes while serving it", async () => {
    upstream.route('/geo', reply.error(500));
    const { status, headers } = await postJson(app, '/api/weather', { params: { city: 'Paris' } });
    expect(status).toBe(500);
    const lines = testLogs.ofRequest(headers['x-request-id'] as string);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        context: 'WeatherService',
        msg: 'Weather geocoding call failed for "paris": Upstream answered HTTP 500',
      }),
      expect.objectContaining({ status: 500, errorCode: 'UPSTREAM_ERROR', route: '/api/weather' }),
    ]);
  });

  it('keeps the id on those lines when the body arrives in several packets', async () => {
    upstream.route('/geo', reply.error(502));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const body = JSON.stringify({ params: { city: 'Lyon' } });
    const client = await RawClient.open(port);
    client.write(
      'POST /api/weather HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Connection: close\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 8)}`,
    );
    // The rest comes in a later packet: the handler then runs from the socket's callback.
    await delay(50);
    client.write(body.slice(8));
    const answer = parseAnswer(await client.closed);
    expect(answer.status).toBe(500);
    const id = answer.headers['x-request-id'];
    const service = testLogs.lines().filter((line) => line.context === 'WeatherService');
    expect(service).toEqual([
      expect.objectContaining({ reqId: id, msg: expect.stringContaining('HTTP 502') }),
    ]);
  });
});

describe('Logs: levels', () => {
  const preflight = {
    method: 'OPTIONS' as const,
    url: CALCULATOR,
    headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
  };

  it('writes preflights and health checks at debug, so LOG_LEVEL=info leaves them out', async () => {
    for (const [level, expected] of [
      ['info', []],
      ['debug', ['OPTIONS /api/calculator', 'GET /health', 'GET /health/ready']],
    ] as const) {
      const app = await createTestApp({ actions: [CalculatorModule], env: { LOG_LEVEL: level } });
      testLogs.clear();
      expect((await app.inject(preflight)).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
      const access = testLogs.lines().filter((line) => line.status !== undefined);
      expect(access.map((line) => `${String(line.method)} ${String(line.route)}`)).toEqual(
        expected,
      );
      expect(access.every((line) => line.level === 'debug')).toBe(true);
      await app.close();
    }
  });
});

describe('Logs: secrets in RPC URLs', () => {
  let node: CountingServer;

  beforeAll(async () => {
    node = await CountingServer.start(failWith(500));
  });
  afterAll(() => node.close());

  it.each([
    ['in its path and query', (base: string) => `${base}/v3/S3CRETPATH?apikey=S3CRETQUERY`],
    ['in its credentials', (base: string) => base.replace('//', '//rpcuser:S3CRETPASS@')],
  ])('writes a failing node URL with a key %s in no line', async (_where, url) => {
    testLogs.clear();
    const app = await createTestApp({
      actions: [PortfolioModule],
      env: {
        CHAIN_CONFIG_FILE: fakeChainFile(node.base),
        RPC_URL_43113: url(node.base),
        LOG_LEVEL: 'trace',
      },
    });
    const { status, headers } = await postJson(
      app,
      '/api/portfolio',
      { params: { timeframe: '24h' } },
      { 'x-wallet-address': FAKE.user },
    );
    await app.close();
    expect(status).toBe(500);
    // The failure was logged, in the request, naming the chain.
    expect(testLogs.ofRequest(headers['x-request-id'] as string)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/chain 43113/) }),
      ]),
    );
    const written = testLogs.raw().join('');
    expect(written).not.toMatch(/S3CRET|rpcuser/);
  });
});

describe('Logs: NODE_ENV=development', () => {
  it('writes one readable text line per entry, without colour codes', async () => {
    const app = await createTestApp({
      actions: [CalculatorModule],
      env: { NODE_ENV: 'development' },
    });
    testLogs.clear();
    const { headers } = await postJson(app, CALCULATOR, { params: { operation: 'add', a: 1 } });
    await app.close();
    const written = testLogs.raw().join('');
    const access = written
      .split('\n')
      .filter((line) => line.includes(String(headers['x-request-id'])));
    expect(access).toEqual([
      expect.stringMatching(/^\[[\d:.]+\] INFO: request completed \{.*"status":400.*\}$/),
    ]);
    expect(written).not.toContain('\u001b[');
  });
});
