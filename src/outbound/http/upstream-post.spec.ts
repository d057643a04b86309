import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadExternalConfig } from '../../config/external.config';
import { MAX_ANSWER_BYTES, UpstreamBounds } from './upstream-bounds';
import { UpstreamError } from './upstream.error';

const CALL = '{"jsonrpc":"2.0","method":"eth_chainId","id":1}';

describe('UpstreamBounds.rpcPost (the batch sender)', () => {
  let server: Server;
  let base: string;
  const seen: { url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let sockets = 0;
  let bounds: UpstreamBounds;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ url: req.url, headers: req.headers, body });
        if (req.url === '/redirect') return res.writeHead(307, { location: '/rpc' }).end();
        if (req.url === '/down') return res.writeHead(503).end('down');
        if (req.url === '/huge') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(Buffer.alloc(MAX_ANSWER_BYTES + 1, 0x20));
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"0x1"}');
      });
    });
    server.on('connection', () => (sockets += 1));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
    sockets = 0;
    bounds = new UpstreamBounds(loadExternalConfig({ EXTERNAL_CIRCUIT_THRESHOLD: '2' }));
  });
  afterEach(() => bounds.onModuleDestroy());

  it('posts the JSON body and reads the whole answer, on kept-alive connections', async () => {
    const post = bounds.rpcPost(`${base}/rpc?key=1`, 1000, 'rpc_43113');
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(CALL));
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200, ok: true, text: '{"result":"0x1"}' });
      expect(answer.contentType).toBe('application/json');
    }
    expect(seen.map(({ url, body }) => [url, body])).toEqual(
      Array.from({ length: 5 }, () => ['/rpc?key=1', CALL]),
    );
    expect(seen[0].headers['content-type']).toBe('application/json');
    // Connections are kept and reused (the pool may open a second while the first finishes).
    expect(sockets).toBeLessThan(answers.length);
  });

  it('sends credentials of the URL as Basic authorization, never in the request line', async () => {
    const url = new URL(`${base}/rpc`);
    url.username = 'user';
    url.password = 'p@ss';
    await bounds.rpcPost(url.toString(), 1000)(CALL);
    expect(seen[0].url).toBe('/rpc');
    const basic = Buffer.from('user:p@ss').toString('base64');
    expect(seen[0].headers.authorization).toBe(`Basic ${basic}`);
  });

  it('refuses a redirect without following it', async () => {
    const error = await bounds
      .rpcPost(
        `${base}/redirect`,
        1000,
      )(CALL)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'redirect', status: 307 });
    expect(seen.map(({ url }) => url)).toEqual(['/redirect']);
  });

  it('refuses an answer larger than MAX_ANSWER_BYTES', async () => {
    const error = await bounds
      .rpcPost(
        `${base}/huge`,
        5000,
      )(CALL)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'malformed' });
  });

  it('counts gateway answers against the host: its circuit opens, and no host is named', async () => {
    const post = bounds.rpcPost(`${base}/down`, 1000);
    expect(await post(CALL)).toMatchObject({
      status: 503,
      ok: false,
      statusText: 'Service Unavailable',
    });
    expect((await post(CALL)).status).toBe(503);
    const refused = await post(CALL).catch((e: unknown) => e);
    expect(refused).toMatchObject({ reason: 'unavailable' });
    expect(seen).toHaveLength(2);
  });

  it('reports a refused connection as a network failure naming its code, not the host', async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await bounds
      .rpcPost(
        `http://127.0.0.1:${port}/`,
        1000,
      )(CALL)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network' });
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).not.toContain('127.0.0.1');
  });
});
