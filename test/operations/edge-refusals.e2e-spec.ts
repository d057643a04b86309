import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import { createTestApp } from '../support/app.factory';
import { KitFixturesModule } from '../fixtures/kit.fixture';
import { testLogs, type LogLine } from '../support/log-capture.helper';
import { parseExposition, valueOf } from '../support/prometheus.helper';
import { exchange, parseAnswer, type RawAnswer, RawClient } from '../support/raw-http.helper';

const BODY_LIMIT_BYTES = 1024;

/**
 * Every answer the service gives leaves an access line and a count, including those written
 * before a route ran: by Node's parser, its deadlines, and the `Expect` handling.
 */
describe('refusals before routing are logged and counted', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await createTestApp({
      actions: [KitFixturesModule],
      env: { REQUEST_TIMEOUT_MS: '1000', BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES) },
    });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  const unknownCount = async (status: number): Promise<number> => {
    const samples = parseExposition(await app.get(ActionMetrics).registry.metrics());
    const labels = { action: 'unknown', mode: 'none', status: String(status) };
    return valueOf(samples, 'dynamic_action_requests_total', labels) ?? 0;
  };

  /** The response's `close` (which writes the line) may follow the client's by a moment. */
  const waitForLine = async (reqId: string): Promise<LogLine> => {
    for (;;) {
      const line = testLogs.accessLine(reqId);
      if (line) return line;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  const linesOf = (answer: RawAnswer): LogLine[] =>
    testLogs.lines().filter((line) => line.reqId === answer.headers['x-request-id']);

  async function expectRecorded(status: number, send: () => Promise<string>): Promise<LogLine> {
    const before = await unknownCount(status);
    const answer = parseAnswer(await send());
    expect(answer.status).toBe(status);
    expect(await unknownCount(status)).toBe(before + 1);
    const lines = linesOf(answer);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', route: 'unknown', status, ip: '127.0.0.1' });
    return lines[0];
  }

  it('413 for a declared body over the limit after Expect: 100-continue', async () => {
    const line = await expectRecorded(413, () =>
      exchange(
        port,
        'POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${BODY_LIMIT_BYTES + 1}\r\nExpect: 100-continue\r\n\r\n`,
      ),
    );
    expect(line.method).toBe('POST');
  });

  it('400 for a bad Content-Length', async () => {
    await expectRecorded(400, () =>
      exchange(port, 'POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n'),
    );
  });

  it('400 for a URL the router cannot decode', async () => {
    await expectRecorded(400, () =>
      exchange(port, 'GET /api/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
  });

  it('431 for headers over the limit', async () => {
    await expectRecorded(431, () =>
      exchange(
        port,
        `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
    );
  });

  it('408 for headers that never finish arriving', async () => {
    await expectRecorded(408, async () => {
      const client = await RawClient.open(port);
      client.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const timer = setInterval(() => client.write('X-A: 1\r\n'), 100);
      // Stop writing once the answer comes: bytes sent after it could reset the connection and
      // lose the answer before it is read.
      client.socket.once('data', () => clearInterval(timer));
      try {
        return await client.closed;
      } finally {
        clearInterval(timer);
      }
    });
  }, 20_000);

  it('408 cutting a body that trickles in: one line, under its route, with its own id', async () => {
    const before = await unknownCount(408);
    const client = await RawClient.open(port);
    client.write(
      'POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\nx-request-id: trickle-1\r\n\r\n{"params":{"word":"',
    );
    const timer = setInterval(() => client.write('x'), 100);
    const answer = parseAnswer(await client.closed.finally(() => clearInterval(timer)));
    expect(answer.status).toBe(408);
    expect(answer.headers['x-request-id']).toBe('trickle-1');
    const line = await waitForLine('trickle-1');
    expect(line).toMatchObject({ route: '/api/echo', status: 408, level: 'info' });
    expect(testLogs.ofRequest('trickle-1')).toHaveLength(1);
    expect(await unknownCount(408)).toBe(before);
  }, 20_000);

  it('an unknown path: route "unknown", no query string in the line', async () => {
    const response = await app.inject({ method: 'GET', url: '/no/such?token=S3CRET' });
    expect(response.statusCode).toBe(404);
    const lines = testLogs.ofRequest(response.headers['x-request-id'] as string);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', route: 'unknown', status: 404 });
    expect(JSON.stringify(lines)).not.toContain('S3CRET');
    // Nor in the envelope's error and message.
    expect(response.body).not.toContain('S3CRET');
  });
});
