import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import { PortfolioModule } from '../../src/actions/portfolio/portfolio.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { createTestApp, postJson } from '../support/app.factory';
import { CountingServer } from '../support/counting.server';
import { runAction } from '../support/platform';
import {
  block,
  FAKE,
  fakeChainFile,
  HEAD,
  healthyChain,
  jsonRpcNode,
  type RpcMethod,
} from '../support/rpc-node.server';

type Action = 'portfolio' | 'best-swap' | 'send-token';

const WRONG_SHAPE = 'The RPC node of Fake Fuji (chain 43113) sent an answer of the wrong shape';

/**
 * Answers of a node that do not have the shape JSON-RPC gives them: each must be an RPC_ERROR
 * (500, naming the chain, never the node's URL), never a bare 500 from a TypeError nor a
 * plausible but false answer (a balance of 0, no liquidity).
 */
describe('RPC answers of the wrong shape', () => {
  let node: CountingServer;
  let app: NestFastifyApplication;
  let methods: Record<string, RpcMethod>;

  beforeAll(async () => {
    methods = healthyChain();
    // The handler reads `methods` on every call: each test swaps one method's answer.
    node = await CountingServer.start(jsonRpcNode(methods));
    app = await createTestApp({
      actions: [PortfolioModule, BestSwapModule, SendTokenModule],
      env: {
        CHAIN_CONFIG_FILE: fakeChainFile(node.base),
        TX_FILL: 'estimate',
        EXTERNAL_TIMEOUT_MS: '3000',
        // Malformed answers say nothing of the host's health: no circuit opens here anyway.
      },
    });
  });
  beforeEach(() => Object.assign(methods, healthyChain()));
  afterAll(async () => {
    await app.close();
    await node.close();
  });

  async function run(action: Action): Promise<{ status: number; body: Record<string, unknown> }> {
    const user = { 'x-wallet-address': FAKE.user };
    switch (action) {
      case 'portfolio':
        return postJson(app, '/api/portfolio', { params: { timeframe: '24h' } }, user);
      case 'best-swap':
        return runAction(
          app,
          '/api/best-swap',
          { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '1' },
          user,
        );
      case 'send-token':
        return runAction(
          app,
          '/api/send-token',
          { token: 'AVAX', recipient: FAKE.recipient, amount: '0.5' },
          user,
        );
    }
  }

  it.each<Action>(['portfolio', 'best-swap', 'send-token'])(
    '%s succeeds on the healthy fake chain (the baseline of every case below)',
    async (action) => {
      expect((await run(action)).status).toBe(200);
    },
  );

  it.each<[Action, string, unknown]>([
    ['portfolio', 'eth_getBlockByNumber', '0x0'],
    ['portfolio', 'eth_getBlockByNumber', {}],
    ['portfolio', 'eth_getBlockByNumber', { number: '0x10' }],
    ['portfolio', 'eth_getBlockByNumber', { number: '0x3e8', timestamp: 'soon' }],
    ['portfolio', 'eth_getBalance', 'abc'],
    ['portfolio', 'eth_getBalance', null],
    ['portfolio', 'eth_getBalance', 12],
    ['portfolio', 'eth_call', null],
    ['portfolio', 'eth_call', {}],
    ['best-swap', 'eth_call', null],
    ['best-swap', 'eth_call', {}],
    ['best-swap', 'eth_call', 'zz'],
    ['send-token', 'eth_call', '0x1234'],
    ['send-token', 'eth_call', null],
    ['send-token', 'eth_getTransactionCount', 'zz'],
    ['send-token', 'eth_getTransactionCount', null],
    ['send-token', 'eth_estimateGas', 'abc'],
    ['send-token', 'eth_estimateGas', null],
    ['send-token', 'eth_estimateGas', {}],
    ['send-token', 'eth_estimateGas', '0x0'],
    ['send-token', 'eth_getBlockByNumber', '0x0'],
    ['send-token', 'eth_getBlockByNumber', {}],
  ])('%s: %s answering %j is an RPC_ERROR', async (action, method, answer) => {
    methods[method] = () => answer;
    const { status, body } = await run(action);
    // The signer's nonce (for its intent) and its balance (the head probe's eth_call, whose 64
    // bytes '0x1234' is not) are first read by the simulation, which answers 503:
    // unchecked is never answered. best-swap's reserves travel in the simulation's batch. The gas
    // (a wallet far above the value plus GAS_CEILING's gas is not estimated in the check) is the
    // fill's to read, after it, as is the check of a gas of 0, which has the right shape but
    // cannot be signed.
    const simulated =
      action === 'best-swap' ||
      (action === 'send-token' && ['eth_getTransactionCount', 'eth_call'].includes(method));
    expect(status).toBe(simulated ? 503 : 500);
    const message = 'The blockchain node is not answering, please try again later';
    const data = { code: 'RPC_ERROR' };
    if (action === 'portfolio') {
      // Data mode carries the code in data.code, as it does every code.
      expect(body).toMatchObject({ success: false, statusCode: 500, error: WRONG_SHAPE, data });
    } else {
      expect(body).toEqual({ error: WRONG_SHAPE, code: 'RPC_ERROR', message, data });
    }
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|https?:/);
  });

  it('portfolio: a node answering another block than the one asked for is an RPC_ERROR', async () => {
    methods.eth_getBlockByNumber = ([tag]) => block(tag === 'latest' ? HEAD : 7);
    const { status, body } = await run('portfolio');
    expect([status, body.error]).toEqual([500, WRONG_SHAPE]);
  });

  it("portfolio: a batch whose answers carry each other's ids is an RPC_ERROR", async () => {
    const honest = jsonRpcNode(methods);
    node.handler = (req, res, text) => {
      const calls = JSON.parse(text) as { id: number }[] | { id: number };
      if (!Array.isArray(calls) || calls.length < 2) return honest(req, res, text);
      // Same answers, ids rotated: viem would pair each result with another call.
      const ids = calls.map((call) => call.id);
      const swapped = calls.map((call, i) => ({ ...call, id: ids[(i + 1) % ids.length] }));
      return honest(req, res, JSON.stringify(swapped));
    };
    try {
      const { status, body } = await run('portfolio');
      expect([status, body.error]).toEqual([500, WRONG_SHAPE]);
    } finally {
      node.handler = jsonRpcNode(methods);
    }
  });
});
