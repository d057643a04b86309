import type { FastifyRequest } from 'fastify';
import pino from 'pino';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadExternalConfig } from '../../config/external.config';
import { ActionMetrics } from '../../telemetry/metrics/action-metrics';
import { enterScope } from '../../telemetry/request-scope';
import { ExternalHttp } from './external-http';
import { UpstreamBounds } from './upstream-bounds';

/** Runs `call` as if serving the request `id` (what RequestObserver does for each request). */
function servingRequest<T>(id: string, call: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    enterScope(
      { raw: {} } as FastifyRequest,
      pino({ enabled: false }),
      { id },
      () => void call().then(resolve, reject),
    ),
  );
}

interface Outcome {
  upstream: string;
  outcome: string;
  value: number;
}

async function outcomes(metrics: ActionMetrics): Promise<Outcome[]> {
  const counter = metrics.registry.getSingleMetric('dynamic_action_upstream_requests_total');
  const { values } = await counter!.get();
  return values
    .map(({ labels, value }) => ({ ...(labels as Omit<Outcome, 'value'>), value }))
    .sort((a, b) => `${a.upstream}${a.outcome}`.localeCompare(`${b.upstream}${b.outcome}`));
}

describe('Calls to upstreams: request id and metrics', () => {
  let server: Server;
  let base: string;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url?.startsWith('/slow')) return; // never answers
      const status = req.url?.startsWith('/down') ? 503 : 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0"}');
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('sends the id of the request being served as x-request-id, to APIs and RPC nodes', async () => {
    const bounds = new UpstreamBounds(loadExternalConfig({}));
    const http = new ExternalHttp(bounds);
    const rpc = bounds.fetchFn(1000, 'rpc_43113');
    const batch = bounds.rpcPost(`${base}/rpc`, 1000, 'rpc_43113');
    const post = { method: 'POST', body: '{"method":"eth_chainId"}', headers: { a: 'b' } };
    await servingRequest('req-42', async () => {
      await http.getJson(`${base}/api`, { upstream: 'prices' });
      await rpc(`${base}/rpc`, post);
      await batch('[{"method":"eth_chainId"}]');
    });
    expect(seen.map((h) => h['x-request-id'])).toEqual(['req-42', 'req-42', 'req-42']);
    // The transport's own headers are kept.
    expect(seen[1]).toMatchObject({ a: 'b', 'content-type': expect.any(String) });
    // Outside a request there is no id to send.
    await http.getJson(`${base}/api`);
    await batch('[{"method":"eth_chainId"}]');
    expect(seen[3]).not.toHaveProperty('x-request-id');
    expect(seen[4]).not.toHaveProperty('x-request-id');
    await bounds.onModuleDestroy();
  });

  it('counts every call under its configuration key by outcome, never by URL', async () => {
    const metrics = new ActionMetrics();
    const bounds = new UpstreamBounds(
      loadExternalConfig({ EXTERNAL_MAX_CONCURRENCY: '1', EXTERNAL_MAX_QUEUE: '0' }),
      metrics,
    );
    const http = new ExternalHttp(bounds);
    const rpc = bounds.fetchFn(1000, 'rpc_43113');
    const batch = bounds.rpcPost(`${base}/down`, 1000, 'rpc_43113');
    const post = { method: 'POST', body: '{}' };
    await http.getJson(`${base}/ok`, { upstream: 'prices' });
    expect((await batch('[]')).status).toBe(503);
    await expect(http.getJson(`${base}/down`, { upstream: 'prices' })).rejects.toMatchObject({
      kind: 'status',
    });
    expect((await rpc(`${base}/rpc`, post)).status).toBe(200);
    expect((await rpc(`${base}/down`, post)).status).toBe(503);
    // One slot, no queue: a second call while the first hangs is refused unsent.
    const slow = http.getJson(`${base}/slow`, { upstream: 'weather_forecast', timeoutMs: 300 });
    await expect(
      http.getJson(`${base}/slow`, { upstream: 'weather_forecast' }),
    ).rejects.toMatchObject({ reason: 'busy' });
    await expect(slow).rejects.toMatchObject({ kind: 'timeout' });
    const cancel = new AbortController();
    cancel.abort(new Error('client gone'));
    await expect(
      http.getJson(`${base}/ok`, { upstream: 'weather_geocoding', signal: cancel.signal }),
    ).rejects.toThrow('client gone');

    expect(await outcomes(metrics)).toEqual([
      { upstream: 'prices', outcome: 'ok', value: 1 },
      { upstream: 'prices', outcome: 'status', value: 1 },
      { upstream: 'rpc_43113', outcome: 'ok', value: 1 },
      { upstream: 'rpc_43113', outcome: 'status', value: 2 },
      { upstream: 'weather_forecast', outcome: 'busy', value: 1 },
      { upstream: 'weather_forecast', outcome: 'timeout', value: 1 },
      { upstream: 'weather_geocoding', outcome: 'cancelled', value: 1 },
    ]);
    const text = await metrics.registry.metrics();
    expect(text).not.toContain('127.0.0.1');
    // Refused calls took no time: only the calls made are timed.
    expect(text).toMatch(
      /dynamic_action_upstream_duration_seconds_count\{upstream="weather_forecast"\} 1\n/,
    );
    await bounds.onModuleDestroy();
  });
});
