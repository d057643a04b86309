import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadExternalConfig } from '../../config/external.config';
import { UpstreamBounds } from './upstream-bounds';
import { UpstreamError } from './upstream.error';
import { UpstreamRefusal } from './upstream-refusal.exception';

const HOST = 'http://upstream.test/path';
const OTHER_HOST = 'http://other.test/path';

const bounds = (env: Record<string, string> = {}): UpstreamBounds =>
  new UpstreamBounds(loadExternalConfig(env));

/** A call that never ends by itself: it rejects once its signal aborts, as fetch does. */
const hang = (started: AbortSignal[]) => (signal: AbortSignal) =>
  new Promise<never>((_resolve, reject) => {
    started.push(signal);
    signal.addEventListener('abort', () => reject(signal.reason as Error));
  });

/** The error a promise rejects with (the test fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('UpstreamBounds', () => {
  it('runs at most EXTERNAL_MAX_CONCURRENCY calls per host, queues EXTERNAL_MAX_QUEUE, refuses the rest at once', async () => {
    const b = bounds({ EXTERNAL_MAX_CONCURRENCY: '2', EXTERNAL_MAX_QUEUE: '1' });
    const started: AbortSignal[] = [];
    const controller = new AbortController();
    const calls = Array.from({ length: 5 }, () =>
      rejection(b.call(HOST, { timeoutMs: 60_000, signal: controller.signal }, hang(started))),
    );
    // The two over slots and queue are refused before any call ends.
    const refused = await Promise.race([Promise.all([calls[3], calls[4]]), calls[0]]);
    expect(refused).toEqual([expect.any(UpstreamRefusal), expect.any(UpstreamRefusal)]);
    expect((refused as UpstreamRefusal[])[0]).toMatchObject({ reason: 'busy' });
    expect((refused as UpstreamRefusal[])[0].getStatus()).toBe(503);
    expect((refused as UpstreamRefusal[])[0].details.code).toBe('UPSTREAM_BUSY');
    expect(started).toHaveLength(2);
    // Another host has bounds of its own.
    const other = b.call(OTHER_HOST, { timeoutMs: 60_000 }, () => Promise.resolve('ok'));
    await expect(other).resolves.toBe('ok');
    controller.abort(new Error('test over'));
    await Promise.all(calls);
  });

  it('counts the wait for a slot in the timeout: a queued call ends at its deadline, never started', async () => {
    const b = bounds({ EXTERNAL_MAX_CONCURRENCY: '1', EXTERNAL_MAX_QUEUE: '5' });
    const started: AbortSignal[] = [];
    const holder = new AbortController();
    const first = rejection(
      b.call(HOST, { timeoutMs: 60_000, signal: holder.signal }, hang(started)),
    );
    const queued = await rejection(b.call(HOST, { timeoutMs: 100 }, hang(started)));
    expect(queued).toBeInstanceOf(UpstreamError);
    expect(queued).toMatchObject({ kind: 'timeout' });
    expect(started).toHaveLength(1);
    holder.abort(new Error('test over'));
    await first;
  });

  it('answers a running call at its deadline with a timeout and aborts it', async () => {
    const b = bounds();
    const started: AbortSignal[] = [];
    const error = await rejection(b.call(HOST, { timeoutMs: 50 }, hang(started)));
    expect(error).toMatchObject({
      kind: 'timeout',
      message: 'Upstream did not answer within 50 ms',
    });
    expect(started[0].aborted).toBe(true);
  });

  it("rethrows the caller's own abort reason", async () => {
    const controller = new AbortController();
    const reason = new Error('client went away');
    const call = bounds().call(HOST, { timeoutMs: 60_000, signal: controller.signal }, hang([]));
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
  });

  describe('circuit', () => {
    const env = { EXTERNAL_CIRCUIT_THRESHOLD: '3', EXTERNAL_CIRCUIT_COOLDOWN_MS: '30000' };
    afterEach(() => jest.restoreAllMocks());

    const failing = (error: Error): { calls: number; run: () => Promise<never> } => {
      const counter = {
        calls: 0,
        run: (): Promise<never> => {
          counter.calls += 1;
          return Promise.reject(error);
        },
      };
      return counter;
    };

    it.each([
      ['refused connections', new UpstreamError('network', 'Upstream unreachable (ECONNREFUSED)')],
      ['timeouts', new UpstreamError('timeout', 'Upstream did not answer within 5 ms')],
      ['503 answers', new UpstreamError('status', 'Upstream answered HTTP 503', 503)],
      ['429 answers', new UpstreamError('status', 'Upstream answered HTTP 429', 429)],
    ])(
      'opens after EXTERNAL_CIRCUIT_THRESHOLD consecutive %s: then refuses without calling, until a probe after the cool-down',
      async (_case, cause) => {
        const b = bounds(env);
        const host = failing(cause);
        for (let i = 0; i < 3; i++) {
          await expect(b.call(HOST, { timeoutMs: 1000 }, host.run)).rejects.toBe(cause);
        }
        const refused = await rejection(b.call(HOST, { timeoutMs: 1000 }, host.run));
        expect(refused).toBeInstanceOf(UpstreamRefusal);
        expect(refused).toMatchObject({ reason: 'unavailable' });
        expect((refused as UpstreamRefusal).details.code).toBe('UPSTREAM_UNAVAILABLE');
        expect(host.calls).toBe(3);
        // Other hosts are not affected.
        await expect(
          b.call(OTHER_HOST, { timeoutMs: 1000 }, () => Promise.resolve('ok')),
        ).resolves.toBe('ok');

        const now = Date.now();
        jest.spyOn(Date, 'now').mockReturnValue(now + 30_001);
        // Half-open: one probe goes through; it succeeds and the circuit closes.
        await expect(
          b.call(HOST, { timeoutMs: 1000 }, () => Promise.resolve('back')),
        ).resolves.toBe('back');
        await expect(b.call(HOST, { timeoutMs: 1000 }, host.run)).rejects.toBe(cause);
        expect(host.calls).toBe(4);
      },
    );

    it('refuses other calls at once while the probe is out, rather than holding them', async () => {
      const b = bounds(env);
      const host = failing(new UpstreamError('network', 'Upstream unreachable'));
      for (let i = 0; i < 3; i++) await rejection(b.call(HOST, { timeoutMs: 1000 }, host.run));
      jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 30_001);
      let answerProbe: (value: string) => void = () => undefined;
      const probe = b.call(
        HOST,
        { timeoutMs: 60_000 },
        () => new Promise<string>((resolve) => (answerProbe = resolve)),
      );
      const during = await rejection(b.call(HOST, { timeoutMs: 60_000 }, host.run));
      expect(during).toMatchObject({ reason: 'unavailable' });
      expect(host.calls).toBe(3);
      answerProbe('back');
      await expect(probe).resolves.toBe('back');
      await expect(
        b.call(HOST, { timeoutMs: 1000 }, () => Promise.resolve('closed')),
      ).resolves.toBe('closed');
    });

    it('opens again at once when the probe fails', async () => {
      const b = bounds(env);
      const host = failing(new UpstreamError('network', 'Upstream unreachable'));
      for (let i = 0; i < 3; i++) await rejection(b.call(HOST, { timeoutMs: 1000 }, host.run));
      jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 30_001);
      await rejection(b.call(HOST, { timeoutMs: 1000 }, host.run));
      expect(host.calls).toBe(4);
      expect(await rejection(b.call(HOST, { timeoutMs: 1000 }, host.run))).toBeInstanceOf(
        UpstreamRefusal,
      );
      expect(host.calls).toBe(4);
    });

    it.each([
      ['a 500 about one request', new UpstreamError('status', 'Upstream answered HTTP 500', 500)],
      ['a 404', new UpstreamError('status', 'Upstream answered HTTP 404', 404)],
      ['a malformed answer', new UpstreamError('malformed', 'Upstream answer is not valid JSON')],
      ['a redirect', new UpstreamError('redirect', 'Upstream answered HTTP 302', 302)],
      ['a bug', new TypeError('bug')],
    ])('never opens on %s, which says nothing of the host', async (_case, cause) => {
      const b = bounds(env);
      const host = failing(cause);
      for (let i = 0; i < 10; i++) {
        await expect(b.call(HOST, { timeoutMs: 1000 }, host.run)).rejects.toBe(cause);
      }
      expect(host.calls).toBe(10);
    });

    it('restarts the count after a success', async () => {
      const b = bounds(env);
      const host = failing(new UpstreamError('network', 'Upstream unreachable'));
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 2; i++) await rejection(b.call(HOST, { timeoutMs: 1000 }, host.run));
        await b.call(HOST, { timeoutMs: 1000 }, () => Promise.resolve('ok'));
      }
      expect(host.calls).toBe(6);
    });
  });
});

describe('UpstreamBounds.fetchFn (the RPC transport)', () => {
  let target: Server;
  let redirecting: Server;
  let targetHits: number;
  let base: string;

  beforeAll(async () => {
    target = createServer((_req, res) => {
      targetHits += 1;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","result":"0x1","id":1}');
    }).listen(0, '127.0.0.1');
    await once(target, 'listening');
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    redirecting = createServer((req, res) => {
      if (req.url === '/redirect') res.writeHead(307, { location: targetUrl }).end();
      else res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
    }).listen(0, '127.0.0.1');
    await once(redirecting, 'listening');
    base = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const server of [target, redirecting]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  beforeEach(() => {
    targetHits = 0;
  });

  const post = { method: 'POST', body: '{"jsonrpc":"2.0","method":"eth_chainId","id":1}' };

  it('refuses a redirect without following it', async () => {
    const fetchFn = bounds().fetchFn(1000);
    const error = await rejection(fetchFn(`${base}/redirect`, post));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'redirect', status: 307 });
    expect(targetHits).toBe(0);
  });

  it('hands viem the whole answer, read within the slot', async () => {
    const fetchFn = bounds().fetchFn(1000);
    const target2 = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const response = await fetchFn(target2, post);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', result: '0x1', id: 1 });
  });

  it('counts gateway answers against the host, and names no host in its errors', async () => {
    const fetchFn = bounds({ EXTERNAL_CIRCUIT_THRESHOLD: '2' }).fetchFn(1000);
    expect((await fetchFn(`${base}/down`, post)).status).toBe(503);
    expect((await fetchFn(`${base}/down`, post)).status).toBe(503);
    const refused = await rejection(fetchFn(`${base}/down`, post));
    expect(refused).toMatchObject({ reason: 'unavailable' });
    expect(JSON.stringify((refused as UpstreamRefusal).getResponse())).not.toContain('127.0.0.1');
  });
});
