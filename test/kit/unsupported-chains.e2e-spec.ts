import { Logger, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACTION_MODULES } from '../../src/actions';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { ActionController, type ActionResult, defineAction, RunAction } from '../../src/kit';
import { type DynamicAction } from '../../src/contract/action.types';
import { ActionRegistry } from '../../src/kit/action.registry';
import { createTestApp } from '../support/app.factory';
import { servedActionModules } from '../../src/payments/served-actions';
import { FUZZ_ENV } from '../fuzz/fuzz.setup';
import { TEST_MINI_APP } from '../fixtures/mini-apps.fixture';

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** The shipped actions; a team's own (npm run new:action) are checked beside them. */
const SHIPPED = [
  '/api/calculator',
  '/api/user-lookup',
  '/api/weather',
  '/api/portfolio',
  '/api/send-token',
  '/api/best-swap',
  '/api/mint-nft',
];

/** A data-mode action on the local development chain (31337). */
const localAction = defineAction({
  miniApp: TEST_MINI_APP,
  label: 'Local',
  chains: { source: 31337 },
  path: '/api/local',
  responseType: 'data',
});

@ActionController(localAction)
class LocalController {
  @RunAction()
  run(): ActionResult<string> {
    return { data: 'ran' };
  }
}

@Module({ controllers: [LocalController] })
class LocalModule {}

interface Sent {
  headers?: Record<string, string>;
  query?: string;
  context?: Record<string, unknown>;
}

describe('Chains every shipped action refuses', () => {
  let app: NestFastifyApplication;
  let actions: DynamicAction[];

  beforeAll(async () => {
    // Upstreams on a closed port: a request that got past the chain check would fail otherwise.
    app = await createTestApp({ env: FUZZ_ENV });
    actions = app.get(ActionRegistry).actions();
  });
  afterAll(() => app?.close());

  const post = async (action: DynamicAction, { headers = {}, query = '', context }: Sent) => {
    const response = await app.inject({
      method: 'POST',
      url: `${action.path}${query}`,
      headers: { 'content-type': 'application/json', 'x-user-address': USER, ...headers },
      payload: JSON.stringify({ params: {}, ...(context && { context }) }),
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  };

  const byPath = (path: string): DynamicAction => actions.find((a) => a.path === path)!;

  it('covers every action the service ships, in both modes', () => {
    expect(actions.map((a) => a.path)).toEqual(expect.arrayContaining(SHIPPED));
    // swap-quote, paid, is served only with X402_PAY_TO (left out here).
    expect(servedActionModules(ACTION_MODULES, FUZZ_ENV)).toHaveLength(actions.length);
    expect(new Set(actions.map((a) => a.responseType ?? 'transaction'))).toEqual(
      new Set(['data', 'transaction']),
    );
  });

  const UNSUPPORTED: [string, Sent, number, string][] = [
    [
      'a configured chain it does not declare',
      { headers: { 'x-source-chain': '43114' } },
      43114,
      'sourceChain',
    ],
    ['a known chain by name', { headers: { 'x-chain-id': 'Celo Mainnet' } }, 42220, 'sourceChain'],
    ['an id nobody knows', { query: '?chainId=999999' }, 999999, 'sourceChain'],
    ['a legacy name in the 2.20 query', { query: '?chain=ethereum' }, 1, 'sourceChain'],
    ['a body context chain', { context: { sourceChain: 'base' } }, 8453, 'sourceChain'],
    [
      'a destination chain it does not declare',
      { headers: { 'x-destination-chain': 'avalanche' } },
      43114,
      'destinationChain',
    ],
  ];

  describe.each(UNSUPPORTED)('%s', (_, sent, chainId, field) => {
    it.each(SHIPPED)('is a 400 UNSUPPORTED_CHAIN from %s', async (path) => {
      const action = byPath(path);
      const { status, body } = await post(action, sent);
      const error = `Chain ${chainId} is not supported by this action (${field}: 43113)`;
      expect(status).toBe(400);
      const data = { code: 'UNSUPPORTED_CHAIN', invalidParams: [field], supportedChains: [43113] };
      if (action.responseType === 'data') {
        expect(body).toMatchObject({ success: false, statusCode: 400, error, data });
      } else {
        // Transaction mode keeps the refusal's message and data as well.
        expect(body).toEqual({
          error,
          code: 'UNSUPPORTED_CHAIN',
          message: expect.any(String),
          data,
        });
      }
    });
  });

  describe.each([
    ['sourceChain', { headers: { 'x-source-chain': 'narnia' } }, 'narnia'],
    [
      'sourceChain',
      { context: { sourceChain: 'Avalanche Fuji Mainnet' } },
      'Avalanche Fuji Mainnet',
    ],
    ['destinationChain', { query: '?destinationChain=Middle%20Earth' }, 'Middle Earth'],
  ])('an unknown %s name (%j)', (field, sent: Sent, name) => {
    it.each(SHIPPED)('is a 400 naming it from %s', async (path) => {
      const action = byPath(path);
      const { status, body } = await post(action, sent);
      const error = `${field} '${name}' is not a known chain`;
      expect(status).toBe(400);
      if (action.responseType === 'data') {
        expect(body).toMatchObject({
          success: false,
          statusCode: 400,
          error,
          data: { invalidParams: [field] },
        });
      } else {
        expect(body).toMatchObject({
          error,
          code: 'VALIDATION_ERROR',
          data: { invalidParams: [field] },
        });
        expect(body).not.toHaveProperty('success');
      }
    });
  });
});

describe('Chains at boot', () => {
  const chainFile = (chains: Record<string, unknown>): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'chains-')), 'chains.json');
    writeFileSync(file, JSON.stringify({ chains }));
    return file;
  };

  it('refuses to start a data-mode action whose chain the configuration lacks', async () => {
    const file = chainFile({ 43114: {} });
    await expect(
      createTestApp({ env: { CHAIN_CONFIG_FILE: file }, actions: [CalculatorModule] }),
    ).rejects.toThrow(
      [
        'Actions declare chains the service does not serve (CHAIN_CONFIG_FILE):',
        '  - action "Calculate" (/api/calculator): chain 43113 (Avalanche Fuji) is not in the chain configuration',
      ].join('\n'),
    );
  });

  it('serves the local development chain under NODE_ENV=test, and refuses it in production', async () => {
    const app = await createTestApp({ actions: [LocalModule] });
    try {
      const response = await app.inject({ method: 'POST', url: '/api/local' });
      expect(response.json()).toMatchObject({ success: true, data: 'ran' });
    } finally {
      await app.close();
    }
    await expect(
      createTestApp({ env: { NODE_ENV: 'production' }, actions: [LocalModule] }),
    ).rejects.toThrow(
      'action "Local" (/api/local): chain 31337 (Local development chain) is listed for development only (NODE_ENV=development or test)',
    );
  });

  describe('in production', () => {
    let warn: jest.SpyInstance;
    beforeEach(() => {
      warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    });
    afterEach(() => warn.mockRestore());

    const chainWarnings = (): string[] =>
      warn.mock.calls.map(([message]) => String(message)).filter((m) => m.startsWith('Chain '));

    it.each([
      ['loopback', 'http://127.0.0.1:8545'],
      ['private', 'http://10.0.0.5:8545/key/SECRET'],
    ])('warns of an RPC node on a %s address, naming the chain only', async (_, url) => {
      const app = await createTestApp({
        env: { NODE_ENV: 'production', RPC_URL_43113: url },
        actions: [CalculatorModule],
      });
      await app.close();
      expect(chainWarnings()).toEqual([
        'Chain 43113 (Avalanche Fuji) has its RPC node on a loopback or private address (set RPC_URL_43113)',
      ]);
    });

    it('says nothing of public nodes', async () => {
      const app = await createTestApp({
        env: { NODE_ENV: 'production' },
        actions: [CalculatorModule],
      });
      await app.close();
      expect(chainWarnings()).toEqual([]);
    });
  });
});
