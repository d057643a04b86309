import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PortfolioModule } from '../../src/actions/portfolio/portfolio.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { WeatherModule } from '../../src/actions/weather/weather.module';
import { loadTracingConfig } from '../../src/config/tracing.config';
import { startTracing } from '../../src/telemetry/tracing/tracing.sdk';
import type { TracingHandle } from '../../src/telemetry/tracing/tracing-state';
import { SpanRecorder } from '../support/span.recorder';
import { createTestApp } from '../support/app.factory';
import { CountingServer } from '../support/counting.server';
import { httpPost } from '../support/http-client.helper';
import { FAKE, fakeChainFile, healthyChain, jsonRpcNode } from '../support/rpc-node.server';
import { FakeUpstream, reply } from '../support/upstream.server';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN}-01`;
const W3C = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

const idOf = (span: ReadableSpan): string => span.spanContext().spanId;
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

describe('Traces (OpenTelemetry, in-memory exporter)', () => {
  const spans = new SpanRecorder();
  let tracing: TracingHandle;

  beforeAll(() => {
    // As src/tracing.ts does in production, before the application is built.
    tracing = startTracing(loadTracingConfig({ OTEL_TRACES_EXPORTER: 'console' }), spans);
  });
  afterAll(() => tracing.shutdown());
  beforeEach(() => spans.reset());

  describe('a request to an action calling an external API', () => {
    let upstream: FakeUpstream;
    let app: NestFastifyApplication;
    let port: number;
    const received: IncomingHttpHeaders[] = [];

    beforeAll(async () => {
      upstream = await FakeUpstream.start();
      app = await createTestApp({
        actions: [WeatherModule],
        env: {
          // Keys in the path and the query: spans must not carry them.
          WEATHER_GEOCODING_URL: `${upstream.base}/geo/S3CRETPATH?key=S3CRETQUERY`,
          WEATHER_FORECAST_URL: `${upstream.base}/forecast`,
        },
      });
      await app.listen(0, '127.0.0.1');
      port = (app.getHttpServer().address() as AddressInfo).port;
    });
    afterAll(async () => {
      await app.close();
      await upstream.close();
    });
    beforeEach(() => {
      upstream.reset();
      received.length = 0;
    });

    const place = reply.json({
      results: [{ name: 'Paris', country: 'France', latitude: 48.85, longitude: 2.35 }],
    });
    const current = reply.json({
      current: { time: '2026-11-22T12:00', temperature_2m: 9, wind_speed_10m: 3, weather_code: 0 },
    });

    it("continues the caller's trace: a server span, a child span per upstream call, ids sent along", async () => {
      upstream.route('/geo/S3CRETPATH', (request) => (received.push(request.headers), place));
      upstream.route('/forecast', (request) => (received.push(request.headers), current));
      const answer = await httpPost(
        port,
        '/api/weather',
        { params: { city: 'Paris' } },
        {
          traceparent: TRACEPARENT,
        },
      );
      expect(answer.status).toBe(200);

      const trace = await spans.ofTrace(TRACE_ID, 3);
      const [server] = trace.filter((span) => span.kind === SpanKind.SERVER);
      expect(server).toMatchObject({
        name: 'POST /api/weather',
        attributes: expect.objectContaining({
          'http.route': '/api/weather',
          'http.response.status_code': 200,
          'dynamic_action.action': '/api/weather',
          'dynamic_action.mode': 'data',
        }),
      });
      expect(parentOf(server)).toBe(CALLER_SPAN);

      const calls = trace.filter((span) => span.kind === SpanKind.CLIENT);
      expect(calls.map((span) => span.attributes['dynamic_action.upstream'])).toEqual([
        'weather_geocoding',
        'weather_forecast',
      ]);
      for (const call of calls) {
        expect(parentOf(call)).toBe(idOf(server));
        expect(call.name).toBe('GET');
        expect(call.attributes['http.response.status_code']).toBe(200);
      }
      expect(calls[0].attributes['url.full']).toBe(`${upstream.base}/<path>?<query>`);
      expect(JSON.stringify(trace.map((span) => span.attributes))).not.toMatch(/S3CRET/);

      // Each upstream got the client's request id and a traceparent naming its own client span.
      expect(received).toHaveLength(2);
      received.forEach((headers, i) => {
        expect(headers['x-request-id']).toBe(answer.headers['x-request-id']);
        const [, traceId, parentId] = W3C.exec(String(headers.traceparent)) ?? [];
        expect([traceId, parentId]).toEqual([TRACE_ID, idOf(calls[i])]);
      });
    });

    it('starts a trace of its own without traceparent, and marks a 5xx as an error', async () => {
      upstream.route('/geo/S3CRETPATH', reply.error(500));
      const answer = await httpPost(port, '/api/weather', { params: { city: 'Lyon' } });
      expect(answer.status).toBe(500);
      const server = await spans.waitFor((ended) =>
        ended.find((span) => span.kind === SpanKind.SERVER),
      );
      expect(server.parentSpanContext).toBeUndefined();
      expect(server.spanContext().traceId).not.toBe(TRACE_ID);
      expect(server.status.code).toBe(SpanStatusCode.ERROR);
      expect(server.attributes).toMatchObject({
        'http.response.status_code': 500,
        'dynamic_action.error_code': 'UPSTREAM_ERROR',
      });
    });
  });

  describe('a request to an action reading a chain', () => {
    let node: CountingServer;
    let app: NestFastifyApplication;
    let port: number;
    const received: IncomingHttpHeaders[] = [];

    beforeAll(async () => {
      const answer = jsonRpcNode(healthyChain());
      node = await CountingServer.start((req, res, body) => {
        received.push(req.headers);
        answer(req, res, body);
      });
      app = await createTestApp({
        actions: [PortfolioModule, SendTokenModule],
        env: {
          CHAIN_CONFIG_FILE: fakeChainFile(node.base),
          RPC_URL_43113: `${node.base}/v3/S3CRETKEY`,
        },
      });
      await app.listen(0, '127.0.0.1');
      port = (app.getHttpServer().address() as AddressInfo).port;
    });
    afterAll(async () => {
      await app.close();
      await node.close();
    });

    it('gives each JSON-RPC request to the node a span, its HTTP call a child of it', async () => {
      const answer = await httpPost(
        port,
        '/api/portfolio',
        { params: { timeframe: '24h' } },
        { traceparent: TRACEPARENT, 'x-wallet-address': FAKE.user },
      );
      expect(answer.status).toBe(200);
      // The server span ends last, once the answer is written.
      const trace = await spans.ofTrace(TRACE_ID, 1 + 2 * received.length);
      const [server] = trace.filter((span) => span.kind === SpanKind.SERVER);
      expect(server.name).toBe('POST /api/portfolio');
      const rpc = trace.filter((span) => span.attributes['rpc.system'] === 'jsonrpc');
      const http = trace.filter((span) => span.kind === SpanKind.CLIENT && !rpc.includes(span));
      expect(rpc.length).toBe(received.length);
      expect(http.length).toBe(received.length);
      for (const call of rpc) {
        expect(call.kind).toBe(SpanKind.CLIENT);
        expect(parentOf(call)).toBe(idOf(server));
        expect(call.name).toMatch(/^jsonrpc (eth_\w+|batch)$/);
        expect(call.attributes['dynamic_action.upstream']).toBe('rpc_43113');
      }
      for (const call of http) {
        expect(rpc.map(idOf)).toContain(parentOf(call));
        expect(call.attributes['url.full']).toBe(`${node.base}/<path>`);
      }
      expect(JSON.stringify(trace.map((span) => span.attributes))).not.toContain('S3CRETKEY');
      for (const headers of received) {
        expect(headers['x-request-id']).toBe(answer.headers['x-request-id']);
        expect(W3C.exec(String(headers.traceparent))?.[1]).toBe(TRACE_ID);
      }
    });

    it("gives a transaction check's one batch (sent on undici's pool, not fetch) the same spans", async () => {
      received.length = 0;
      const answer = await httpPost(
        port,
        '/api/send-token',
        { params: { token: 'AVAX', recipient: FAKE.recipient, amount: '0.1' } },
        { traceparent: TRACEPARENT, 'x-user-address': FAKE.user },
      );
      expect(answer.status).toBe(200);
      expect(received).toHaveLength(1);
      const trace = await spans.ofTrace(TRACE_ID, 3);
      const [server] = trace.filter((span) => span.kind === SpanKind.SERVER);
      const [rpc] = trace.filter((span) => span.attributes['rpc.system'] === 'jsonrpc');
      const [http] = trace.filter((span) => span.kind === SpanKind.CLIENT && span !== rpc);
      expect(rpc.name).toBe('jsonrpc batch');
      expect(parentOf(rpc)).toBe(idOf(server));
      expect(parentOf(http)).toBe(idOf(rpc));
      expect(http.attributes['url.full']).toBe(`${node.base}/<path>`);
      expect(JSON.stringify(trace.map((span) => span.attributes))).not.toContain('S3CRETKEY');
      expect(received[0]['x-request-id']).toBe(answer.headers['x-request-id']);
      const [, traceId, parentId] = W3C.exec(String(received[0].traceparent)) ?? [];
      expect([traceId, parentId]).toEqual([TRACE_ID, idOf(http)]);
    });
  });
});
