import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp } from '../support/app.factory';
import { KitFixturesModule } from '../fixtures/kit.fixture';
import { type DataError, expectDataError, send, UUID } from '../support/kit.helper';
import { exchange, parseAnswer, type RawAnswer, RawClient } from '../support/raw-http.helper';

/** Small enough for quick tests, wide enough for any machine to send a request in time. */
const REQUEST_TIMEOUT_MS = 1000;
/** For a request that must not meet the deadline: past any stall of a loaded machine. */
const PATIENT_TIMEOUT_MS = 60_000;
const BODY_LIMIT_BYTES = 1024;
const TIMEOUT = 20_000;

async function listening(env: Record<string, string>): Promise<[NestFastifyApplication, number]> {
  const app = await createTestApp({ actions: [KitFixturesModule], env });
  await app.listen(0, '127.0.0.1');
  return [app, (app.getHttpServer().address() as AddressInfo).port];
}

/** The data envelope with CORS headers and an x-request-id, statusCode equal to the status. */
function expectEnvelope(answer: RawAnswer, status: number, requestId: unknown = UUID): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['access-control-allow-origin']).toBe('*');
  expect(answer.headers['access-control-allow-methods']).toMatch(/POST/);
  expect(answer.headers['access-control-allow-headers']).toMatch(/x-user-address/);
  expect(answer.headers['x-request-id']).toEqual(
    requestId instanceof RegExp ? expect.stringMatching(requestId) : requestId,
  );
  const body = JSON.parse(answer.body) as DataError;
  expect(Object.keys(body).sort()).toEqual([
    'error',
    'message',
    'metadata',
    'statusCode',
    'success',
  ]);
  expect(body).toMatchObject({
    success: false,
    statusCode: status,
    metadata: { timestamp: expect.any(Number), requestId: answer.headers['x-request-id'] },
  });
  expect(Math.abs(body.metadata.timestamp - Date.now())).toBeLessThan(60_000);
  expect(body.message).toEqual(expect.any(String));
  expect(body.error).not.toBe('');
}

describe('HTTP edge: deadlines and errors raised before routing', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    [app, port] = await listening({
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
    });
  });
  afterAll(() => app.close());

  describe('request deadlines', () => {
    /** Sends `first`, then one byte of `drip` every 100 ms, until the server closes. */
    async function trickle(first: string, drip: string): Promise<RawAnswer> {
      const client = await RawClient.open(port);
      client.write(first);
      const timer = setInterval(() => client.write(drip), 100);
      try {
        return parseAnswer(await client.closed);
      } finally {
        clearInterval(timer);
      }
    }

    it(
      'answers 408 in the envelope and closes a request whose body trickles in',
      async () => {
        const answer = await trickle(
          'POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
            'Content-Length: 1000\r\n\r\n{"params":{"word":"',
          'x',
        );
        expectEnvelope(answer, 408);
      },
      TIMEOUT,
    );

    it(
      'answers 408 and closes a request whose headers trickle in',
      async () => {
        const answer = await trickle('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-A: 1\r\n');
        expectEnvelope(answer, 408);
      },
      TIMEOUT,
    );

    it(
      'still serves a request sent at once, and keeps its connection alive',
      async () => {
        // Its own app, whose deadline is far beyond any pause of this process: with the 1 s one,
        // a busy machine that stalls the test process (which is also the server) between the
        // accept and the read lets the deadline's check run first, and the request gets 408.
        const [patient, patientPort] = await listening({
          REQUEST_TIMEOUT_MS: String(PATIENT_TIMEOUT_MS),
          BODY_LIMIT_BYTES: String(BODY_LIMIT_BYTES),
        });
        try {
          const client = await RawClient.open(patientPort);
          client.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
          const answer = parseAnswer(await client.waitFor('{"status":"ok"}'));
          expect(answer.status).toBe(200);
          expect(client.socket.destroyed).toBe(false);
          client.destroy();
        } finally {
          await patient.close();
        }
      },
      TIMEOUT,
    );
  });

  describe('errors of the HTTP parser', () => {
    it.each([
      ['a malformed request line', 'GARBAGE\r\n\r\n'],
      ['a malformed header line', 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon\r\n\r\n'],
      [
        'a bad Content-Length',
        'POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n',
      ],
    ])('answers %s with 400 in the envelope', async (_, request) => {
      expectEnvelope(parseAnswer(await exchange(port, request)), 400);
    });

    it('answers headers over 16 KiB with 431 in the envelope', async () => {
      const request = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\n`;
      expectEnvelope(parseAnswer(await exchange(port, request)), 431);
    });

    it('answers a URL the router cannot decode with 400 in the envelope', async () => {
      const request = 'GET /api/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n';
      expectEnvelope(parseAnswer(await exchange(port, request)), 400);
    });
  });

  describe('Host', () => {
    it('answers an HTTP/1.1 request without Host with 400 in the envelope', async () => {
      const answer = parseAnswer(
        await exchange(port, 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n'),
      );
      expectEnvelope(answer, 400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'The Host header is required' });
    });

    it('serves an HTTP/1.0 health check without Host (load balancers send them)', async () => {
      const answer = parseAnswer(await exchange(port, 'GET /health HTTP/1.0\r\n\r\n'));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
    });
  });

  describe('Expect', () => {
    const post = (length: number, expect: string): string =>
      `POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${length}\r\nExpect: ${expect}\r\nx-request-id: edge-7\r\n\r\n`;

    it('refuses a declared body over BODY_LIMIT_BYTES with 413 before 100 Continue', async () => {
      const raw = await exchange(port, post(BODY_LIMIT_BYTES + 1, '100-continue'));
      expect(raw).not.toMatch(/100 Continue/);
      expectEnvelope(parseAnswer(raw), 413, 'edge-7');
    });

    it('sends 100 Continue for a body within the limit, then serves it', async () => {
      const body = '{"params":{"word":"hi"}}';
      const client = await RawClient.open(port);
      client.write(post(body.length, '100-continue'));
      await client.waitFor('HTTP/1.1 100 Continue\r\n\r\n');
      client.write(body);
      const answer = parseAnswer(await client.waitFor('"success":true'));
      expect(answer.status).toBe(200);
      client.destroy();
    });

    it('answers another expectation with 417 in the envelope', async () => {
      expectEnvelope(parseAnswer(await exchange(port, post(2, 'something-else'))), 417, 'edge-7');
    });
  });

  describe('other methods on an action path', () => {
    it.each([['PUT'], ['PATCH'], ['DELETE'], ['PROPFIND'], ['MKCOL'], ['TRACE']] as const)(
      'answers %s with 405 and Allow in the data envelope',
      async (method) => {
        const response = await send(app, { method, url: '/api/echo' });
        expect(response.statusCode).toBe(405);
        expect(response.headers.allow).toBe('GET, POST, OPTIONS');
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expectDataError(405, response.json<DataError>(), response.headers['x-request-id']);
      },
    );

    it('answers them in the transaction shape on a transaction action', async () => {
      const response = await send(app, { method: 'DELETE', url: '/api/tx-transfer' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET, POST, OPTIONS');
      expect(response.json()).toEqual({
        error: 'Method not allowed',
        code: 'METHOD_NOT_ALLOWED',
        message: 'DELETE is not allowed here: POST runs the action, GET reads its metadata',
      });
    });

    it('keeps 404 where no action is declared', async () => {
      for (const url of ['/api/unknown', '/api/metadata', '/health']) {
        const response = await send(app, { method: 'PUT', url });
        expect(response.statusCode).toBe(404);
        expect(response.headers.allow).toBeUndefined();
      }
    });

    it('keeps GET, POST and OPTIONS on the action path', async () => {
      expect((await send(app, { method: 'GET', url: '/api/echo' })).statusCode).toBe(200);
      expect((await send(app, { url: '/api/echo', payload: '{}' })).statusCode).toBe(200);
      expect((await send(app, { method: 'OPTIONS', url: '/api/echo' })).statusCode).toBe(200);
    });
  });
});

describe('HTTP edge: connection cap', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    [app, port] = await listening({ MAX_CONNECTIONS: '2' });
  });
  afterAll(() => app.close());

  const HEALTH = 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

  it(
    'closes a third concurrent connection unanswered while serving the first two',
    async () => {
      const first = await RawClient.open(port);
      const second = await RawClient.open(port);
      first.write(HEALTH);
      second.write(HEALTH);
      // Answered: both are counted by the server and kept alive.
      await first.waitFor('{"status":"ok"}');
      await second.waitFor('{"status":"ok"}');

      const dropped = once(app.getHttpServer(), 'drop');
      const third = await RawClient.open(port);
      third.write(HEALTH);
      expect(await third.closed).toBe('');
      await dropped;

      first.received = '';
      first.write(HEALTH);
      expect(parseAnswer(await first.waitFor('{"status":"ok"}')).status).toBe(200);
      first.destroy();
      second.destroy();
    },
    TIMEOUT,
  );
});
