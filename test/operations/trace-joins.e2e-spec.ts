import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { request } from 'node:http';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { loadTracingConfig } from '../../src/config/tracing.config';
import { GracefulShutdown } from '../../src/server/graceful-shutdown';
import { startTracing } from '../../src/telemetry/tracing/tracing.sdk';
import type { TracingHandle } from '../../src/telemetry/tracing/tracing-state';
import { SpanRecorder } from '../support/span.recorder';
import { createTestApp, postJson } from '../support/app.factory';
import { KitFixturesModule } from '../fixtures/kit.fixture';
import { testLogs } from '../support/log-capture.helper';
import { freePort } from '../support/redis.helper';

const CONFIG = loadTracingConfig({ OTEL_TRACES_EXPORTER: 'otlp' });
const VERSION = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/**
 * An exporter that POSTs each batch to `url` over HTTP and reports the outcome when the collector
 * answers or the connection fails, as the OTLP exporter does (its own 10 s timeout aside; the
 * OTLP package's HTTP transport loads through a dynamic import Jest's VM refuses).
 */
class HttpExporter implements SpanExporter {
  constructor(private readonly url: string) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const post = request(this.url, { method: 'POST' }, (res) => {
      res.resume();
      done({ code: ExportResultCode.SUCCESS });
    });
    post.on('error', (error) => done({ code: ExportResultCode.FAILED, error }));
    post.end(JSON.stringify({ spans: spans.length }));
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** An OTLP collector that accepts connections and never answers: a stalled one. */
async function stalledCollector(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('logs and traces joined', () => {
  const spans = new SpanRecorder();
  let tracing: TracingHandle;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    tracing = startTracing(CONFIG, spans);
    app = await createTestApp({ actions: [KitFixturesModule] });
  });
  afterAll(async () => {
    await app.close();
    await tracing.shutdown();
  });

  it("every log line of a traced request carries its trace and span ids; its span carries the request id and the service's version", async () => {
    testLogs.clear();
    const response = await postJson(app, '/api/data-broken', { params: {} });
    expect(response.status).toBe(500);
    const reqId = response.headers['x-request-id'] as string;
    const span = await spans.waitFor((all) =>
      all.find((s) => s.attributes['dynamic_action.request_id'] === reqId),
    );
    const { traceId, spanId } = span.spanContext();
    const lines = testLogs.ofRequest(reqId);
    // The error the filter logs, and the access line.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatchObject({ trace_id: traceId, span_id: spanId });
    expect(span.resource.attributes['service.version']).toBe(VERSION);
  });

  it('health probes are not traced', async () => {
    spans.reset();
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
    const after = await postJson(app, '/api/echo', { params: {} });
    const reqId = after.headers['x-request-id'] as string;
    // Exported in the order they end: once the last request's span is here, any probe's would be.
    await spans.waitFor((all) =>
      all.find((s) => s.attributes['dynamic_action.request_id'] === reqId),
    );
    expect(spans.getFinishedSpans().map((s) => s.attributes['http.route'])).toEqual(['/api/echo']);
  });
});

describe('a collector that fails or stalls', () => {
  let tracing: TracingHandle | undefined;
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
  });

  it('logs failed exports, once while they keep failing', async () => {
    const refused = `http://127.0.0.1:${await freePort()}/v1/traces`;
    tracing = startTracing(CONFIG, new HttpExporter(refused));
    const app = await createTestApp({ actions: [KitFixturesModule] });
    try {
      testLogs.clear();
      const failures = (): string[] =>
        testLogs
          .lines()
          .filter((line) => line.context === 'Tracing')
          .map((line) => String(line.msg));
      for (let i = 0; i < 3; i++) await postJson(app, '/api/echo', { params: {} });
      while (failures().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      for (let i = 0; i < 3; i++) await postJson(app, '/api/echo', { params: {} });
      expect(failures()).toEqual([
        expect.stringMatching(/^Trace export failed, 1 spans dropped: connect ECONNREFUSED/),
      ]);
    } finally {
      await app.close();
    }
  });

  it('a stalled collector costs the last spans, not the clean exit: SIGTERM still stops with 0', async () => {
    const collector = await stalledCollector();
    tracing = startTracing(CONFIG, new HttpExporter(collector.url));
    const app = await createTestApp({
      actions: [KitFixturesModule],
      env: { SHUTDOWN_TIMEOUT_MS: '4000', SHUTDOWN_DRAIN_MS: '100' },
    });
    try {
      await app.listen(0, '127.0.0.1');
      testLogs.clear();
      // A span whose export now waits on the collector.
      await postJson(app, '/api/echo', { params: {} });
      expect(await GracefulShutdown.of(app).stop('SIGTERM')).toBe(0);
      expect(testLogs.lines().map((line) => line.msg)).toContainEqual(
        expect.stringMatching(/^Trace export did not finish within 1000 ms/),
      );
    } finally {
      await collector.close();
    }
  }, 30_000);
});
