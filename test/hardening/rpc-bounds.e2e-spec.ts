import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PortfolioModule } from '../../src/actions/portfolio/portfolio.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { createTestApp, type InjectedJson, postJson } from '../support/app.factory';
import { CountingServer, failWith, neverAnswer, redirectTo } from '../support/counting.server';
import { type ActionAnswer, runAction } from '../support/platform';
import { FAKE, fakeChainFile, healthyChain, jsonRpcNode } from '../support/rpc-node.server';

const TIMEOUT_MS = 2000;

/** The RPC node behind both actions: portfolio (data mode) and send-token (transaction mode). */
const startApp = (node: CountingServer, env: Record<string, string>) =>
  createTestApp({
    actions: [PortfolioModule, SendTokenModule],
    env: {
      CHAIN_CONFIG_FILE: fakeChainFile(node.base),
      TX_FILL: 'estimate',
      EXTERNAL_TIMEOUT_MS: String(TIMEOUT_MS),
      ...env,
    },
  });

const portfolio = (app: NestFastifyApplication): Promise<InjectedJson> =>
  postJson(
    app,
    '/api/portfolio',
    { params: { timeframe: '24h' } },
    { 'x-user-address': FAKE.user },
  );

const sendToken = (app: NestFastifyApplication): Promise<ActionAnswer> =>
  runAction(
    app,
    '/api/send-token',
    { token: 'AVAX', recipient: FAKE.recipient, amount: '0.5' },
    { 'x-wallet-address': FAKE.user },
  );

/** Nothing of where the node lives reaches the user. */
const expectNoUrl = (body: unknown): void =>
  expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|https?:/);

describe('An RPC node that never answers', () => {
  let node: CountingServer;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    node = await CountingServer.start(neverAnswer);
    app = await startApp(node, {
      EXTERNAL_MAX_CONCURRENCY: '2',
      EXTERNAL_MAX_QUEUE: '0',
      EXTERNAL_CIRCUIT_THRESHOLD: '1000',
    });
  });
  afterAll(async () => {
    await app.close();
    await node.close();
  });

  it('gets at most EXTERNAL_MAX_CONCURRENCY calls; the next action is refused at once, in its mode', async () => {
    const started = performance.now();
    const timed = (answer: Promise<InjectedJson>) =>
      answer.then((a) => ({ ...a, ms: performance.now() - started }));
    // One at a time, so the transport cannot merge them into one batch.
    const first = timed(portfolio(app));
    await node.until(() => node.requests === 1);
    const second = timed(portfolio(app));
    await node.until(() => node.requests === 2);

    const busy = await portfolio(app);
    expect(busy.status).toBe(503);
    expect(busy.body).toMatchObject({
      success: false,
      statusCode: 503,
      data: { code: 'UPSTREAM_BUSY' },
    });
    const busyTx = await sendToken(app);
    expect(busyTx).toEqual({
      status: 503,
      body: {
        error: 'Too many calls are waiting for an external service',
        code: 'UPSTREAM_BUSY',
        message: 'An external service is busy, please try again in a moment',
        data: { code: 'UPSTREAM_BUSY' },
      },
    });
    expect([node.liveSockets, node.requests]).toEqual([2, 2]);

    for (const stalled of await Promise.all([first, second])) {
      expect(stalled.status).toBe(500);
      expect(stalled.body.error).toBe(
        'The RPC node of Fake Fuji (chain 43113) did not answer in time',
      );
      expect(stalled.ms).toBeLessThan(TIMEOUT_MS * 3);
      expectNoUrl(stalled.body);
    }
    expect(node.maxOpenRequests).toBe(2);
  });
});

describe('An RPC node that keeps failing', () => {
  let node: CountingServer;
  let app: NestFastifyApplication;
  const COOLDOWN_MS = 60_000;

  beforeAll(async () => {
    node = await CountingServer.start(failWith(503));
    app = await startApp(node, {
      EXTERNAL_CIRCUIT_THRESHOLD: '2',
      EXTERNAL_CIRCUIT_COOLDOWN_MS: String(COOLDOWN_MS),
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await app.close();
    await node.close();
  });

  it('is not called once its circuit is open, by any action, until a probe after the cool-down', async () => {
    for (let i = 0; i < 2; i++) {
      const failed = await portfolio(app);
      expect([failed.status, failed.body.error]).toEqual([
        500,
        'The RPC node of Fake Fuji (chain 43113) could not be reached',
      ]);
    }
    expect(node.requests).toBe(2);

    const refused = await portfolio(app);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ statusCode: 503, data: { code: 'UPSTREAM_UNAVAILABLE' } });
    expect(await sendToken(app)).toEqual({
      status: 503,
      body: {
        error: 'An external service keeps failing; calls to it are paused',
        code: 'UPSTREAM_UNAVAILABLE',
        message: 'An external service is unavailable, please try again later',
        data: { code: 'UPSTREAM_UNAVAILABLE' },
      },
    });
    expect(node.requests).toBe(2);

    const now = Date.now();
    jest.spyOn(Date, 'now').mockImplementation(() => now + COOLDOWN_MS + 1);
    node.handler = jsonRpcNode(healthyChain());
    const probe = await portfolio(app);
    expect(probe.status).toBe(200);
    expect(node.requests).toBeGreaterThan(2);
    expect((await sendToken(app)).status).toBe(200);
  });
});

describe('An RPC node that redirects', () => {
  let elsewhere: CountingServer;
  let node: CountingServer;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    elsewhere = await CountingServer.start(jsonRpcNode(healthyChain()));
    node = await CountingServer.start(redirectTo(elsewhere.base, 307));
    app = await startApp(node, {});
  });
  afterAll(async () => {
    await app.close();
    await node.close();
    await elsewhere.close();
  });

  it('is refused by every action, and the host it points to sees no request', async () => {
    const data = await portfolio(app);
    expect([data.status, data.body.error]).toEqual([
      500,
      'The RPC node of Fake Fuji (chain 43113) could not be reached',
    ]);
    const tx = await sendToken(app);
    // The transaction cannot be checked against the chain: unavailable, not answered unchecked.
    expect(tx.status).toBe(503);
    expect(tx.body).toMatchObject({ code: 'RPC_ERROR' });
    expectNoUrl([data.body, tx.body]);
    expect(node.requests).toBe(2);
    expect(elsewhere.requests).toBe(0);
  });
});
