import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadExternalConfig } from '../../config/external.config';
import { ExternalHttp, fetchJson, UpstreamError } from './external-http';
import { UpstreamBounds } from './upstream-bounds';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const externalHttp = (env: Record<string, string>): ExternalHttp =>
  new ExternalHttp(new UpstreamBounds(loadExternalConfig(env)));

describe('fetchJson', () => {
  let server: Server;
  let base: string;
  let handler: Handler;
  let closedEarly: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      res.on('close', () => {
        if (!res.writableEnded) {
          closedEarly += 1;
          server.emit('closed-early');
        }
      });
      handler(req, res);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    closedEarly = 0;
  });

  const answer =
    (status: number, body: string): Handler =>
    (_req, res) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  const hang: Handler = () => undefined;

  /** Runs the call expecting an UpstreamError, and checks its text never names the URL. */
  async function failure(url: string, timeoutMs = 1000): Promise<UpstreamError> {
    const error = await fetchJson(url, { timeoutMs }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    const { message } = error as UpstreamError;
    expect(message).not.toContain('127.0.0.1');
    expect(message).not.toContain(new URL(url).port);
    expect(message).not.toContain('/secret');
    return error as UpstreamError;
  }

  it('returns the parsed JSON and asks for JSON', async () => {
    let accept: string | undefined;
    handler = (req, res) => {
      accept = req.headers.accept;
      answer(200, '{"a":[1,2]}')(req, res);
    };
    await expect(fetchJson(`${base}/ok`, { timeoutMs: 1000 })).resolves.toEqual({ a: [1, 2] });
    expect(accept).toBe('application/json');
  });

  it('reports a non-2xx answer as a status failure with the status', async () => {
    handler = answer(503, '{"error":"down"}');
    const error = await failure(`${base}/secret?key=k`);
    expect(error).toMatchObject({ kind: 'status', status: 503 });
  });

  it.each(['{"a":', '', '<html>oops</html>'])('reports %j as malformed', async (body) => {
    handler = answer(200, body);
    expect(await failure(`${base}/secret`)).toMatchObject({ kind: 'malformed' });
  });

  it('refuses an answer larger than maxBytes, declared or streamed', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(2000) });
    handler = answer(200, big);
    await expect(
      fetchJson(`${base}/big`, { timeoutMs: 1000, maxBytes: 100 }),
    ).rejects.toMatchObject({ kind: 'malformed' });
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(big.slice(0, 1000));
      res.end(big.slice(1000));
    };
    await expect(
      fetchJson(`${base}/big`, { timeoutMs: 1000, maxBytes: 100 }),
    ).rejects.toMatchObject({ kind: 'malformed' });
    await expect(fetchJson(`${base}/big`, { timeoutMs: 1000 })).resolves.toEqual(JSON.parse(big));
  });

  it('aborts a call that outlives the timeout, closing the connection', async () => {
    handler = hang;
    const closed = once(server, 'closed-early');
    const started = performance.now();
    expect(await failure(`${base}/secret`, 100)).toMatchObject({ kind: 'timeout' });
    expect(performance.now() - started).toBeLessThan(100 * 5);
    await closed;
    expect(closedEarly).toBe(1);
  });

  it('times out a body that stops half-way', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    };
    expect(await failure(`${base}/secret`, 100)).toMatchObject({ kind: 'timeout' });
  });

  it.each([301, 302, 307, 308])(
    'refuses a %i redirect without following it to the other host',
    async (status) => {
      let followed = 0;
      const elsewhere = createServer((_req, res) => {
        followed += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"stolen":true}');
      }).listen(0, '127.0.0.1');
      await once(elsewhere, 'listening');
      const location = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/secret`;
      handler = (_req, res) => res.writeHead(status, { location }).end();
      try {
        expect(await failure(`${base}/secret`)).toMatchObject({ kind: 'redirect', status });
        expect(followed).toBe(0);
      } finally {
        elsewhere.closeAllConnections();
        await new Promise((resolve) => elsewhere.close(resolve));
      }
    },
  );

  it('reports a refused connection as a network failure', async () => {
    const spare = createServer().listen(0, '127.0.0.1');
    await once(spare, 'listening');
    const url = `http://127.0.0.1:${(spare.address() as AddressInfo).port}/secret`;
    await new Promise((resolve) => spare.close(resolve));
    const error = await failure(url);
    expect(error.kind).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it("rethrows the caller's own abort reason rather than calling it an upstream failure", async () => {
    handler = hang;
    const controller = new AbortController();
    const reason = new Error('client went away');
    const call = fetchJson(`${base}/hang`, { timeoutMs: 5000, signal: controller.signal });
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
  });

  it('ExternalHttp applies the configured timeout unless the call sets its own', async () => {
    handler = hang;
    const http = externalHttp({ EXTERNAL_TIMEOUT_MS: '50' });
    await expect(http.getJson(`${base}/hang`)).rejects.toMatchObject({ kind: 'timeout' });
    const slowerHttp = externalHttp({ EXTERNAL_TIMEOUT_MS: '60000' });
    await expect(slowerHttp.getJson(`${base}/hang`, { timeoutMs: 50 })).rejects.toMatchObject({
      kind: 'timeout',
    });
  });
});
