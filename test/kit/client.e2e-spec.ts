import { isDynamicAction } from '../../src/contract/chain-action.types';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { UserLookupModule } from '../../src/actions/user-lookup/user-lookup.module';
import {
  type DynamicAction,
  executeDynamic,
  type FetchLike,
  isDataResponse,
  isTransactionError,
  isTransactionResponse,
  type MiniAppMetadata,
} from '../../src/client';
import {
  ActionContext,
  ActionController,
  ActionParam,
  ActionParams,
  defineAction,
  type ExecutionResponse,
  type RequestContext,
  RunAction,
} from '../../src/kit';
import { type MiniAppIndex } from '../../src/contract/mini-app.types';
import { createTestApp } from '../support/app.factory';
import { TEST_MINI_APP } from '../fixtures/mini-apps.fixture';

/** EIP-55 test vector (checksummed). */
const USER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const RECIPIENT = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

class TestTxParams {
  @ActionParam({ type: 'address', label: 'To', required: true })
  to!: string;

  @ActionParam({ type: 'number', label: 'Amount', required: true, min: 1 })
  amount!: number;

  @ActionParam({ type: 'boolean', label: 'Urgent' })
  urgent?: boolean;
}

/** Test-only transaction-mode action: a fixed-shape transaction echoing what it received. */
@ActionController(
  defineAction({
    label: 'Test transfer',
    chains: { source: 43113 },
    path: '/api/test-tx',
    miniApp: TEST_MINI_APP,
    params: TestTxParams,
  }),
)
class TestTxController {
  @RunAction()
  run(
    @ActionParams() params: TestTxParams,
    @ActionContext() context: RequestContext,
  ): ExecutionResponse {
    return {
      serializedTransaction: '0x02f86c',
      chainId: context.sourceChain ?? 43113,
      params: { functionName: 'transfer', args: { ...params, from: context.userAddress } },
    };
  }
}

@Module({ controllers: [TestTxController] })
class TestTxModule {}

interface Recorded {
  url: string;
  body?: string;
  headers: Record<string, string>;
}

/** The real fetch, recording what the client hands it. */
function recordingFetch(): { fetch: FetchLike; sent: Recorded[] } {
  const sent: Recorded[] = [];
  const fetch: FetchLike = (url, init) => {
    sent.push({ url, body: init.body, headers: init.headers });
    return globalThis.fetch(url, init);
  };
  return { fetch, sent };
}

async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('Client SDK over a real socket', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;
  let actions: Map<string, DynamicAction>;

  const action = (path: string): DynamicAction => {
    const found = actions.get(path);
    if (!found) throw new Error(`${path} is not in the published metadata`);
    return found;
  };

  beforeAll(async () => {
    app = await createTestApp({ actions: [CalculatorModule, UserLookupModule, TestTxModule] });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
    // The actions as the platform gets them: from each mini-app's document the index lists.
    const response = await fetch(`${baseUrl}/api/metadata`);
    expect(response.status).toBe(200);
    const index = (await response.json()) as MiniAppIndex;
    expect(index.baseUrl).toBe(baseUrl);
    actions = new Map();
    for (const { metadataUrl } of index.miniApps) {
      const metadata = (await (await fetch(metadataUrl)).json()) as MiniAppMetadata;
      for (const published of metadata.actions.filter(isDynamicAction))
        actions.set(published.path, published);
    }
  });
  afterAll(() => app?.close());

  it('publishes the actions the client is about to run', () => {
    expect(action('/api/calculator')).toMatchObject({ type: 'dynamic', responseType: 'data' });
    expect(action('/api/user-lookup')).toMatchObject({ type: 'dynamic', responseType: 'data' });
    expect(action('/api/test-tx').responseType).toBeUndefined();
  });

  describe('calculator (data mode)', () => {
    it('computes with the values sent as `{params}`', async () => {
      const { fetch, sent } = recordingFetch();
      const result = await executeDynamic(
        action('/api/calculator'),
        { operation: 'divide', a: 7, b: 2 },
        { baseUrl, userAddress: USER, sourceChain: 43113, fetch },
      );
      expect(isDataResponse(result)).toBe(true);
      expect(result).toMatchObject({
        success: true,
        statusCode: 200,
        data: { operation: 'divide', a: 7, b: 2, result: 3.5 },
        metadata: { requestId: expect.any(String), timestamp: expect.any(Number) },
      });
      expect(sent[0].url).toBe(`${baseUrl}/api/calculator`);
      expect(JSON.parse(sent[0].body ?? '')).toEqual({
        params: { operation: 'divide', a: 7, b: 2 },
      });
    });

    it('answers 400 naming the missing parameters', async () => {
      const result = await executeDynamic(action('/api/calculator'), { a: 1 }, { baseUrl });
      expect(result).toMatchObject({
        success: false,
        statusCode: 400,
        error: 'operation is required, b is required',
      });
    });

    it.each([
      [{ userAddress: '0x1234' }, 'userAddress must be a valid address'],
      [{ sourceChain: 1.5 }, 'sourceChain must be a valid chain id'],
    ])('delivers the context headers: %j is refused with 400', async (context, error) => {
      const result = await executeDynamic(
        action('/api/calculator'),
        { operation: 'add', a: 1, b: 2 },
        { baseUrl, ...context },
      );
      expect(result).toMatchObject({ success: false, statusCode: 400, error });
    });
  });

  describe('user lookup (data mode)', () => {
    it('returns the user', async () => {
      const result = await executeDynamic(action('/api/user-lookup'), { userId: '2' }, { baseUrl });
      expect(result).toMatchObject({
        success: true,
        statusCode: 200,
        data: { id: '2', username: 'bob', verified: false },
      });
    });

    it('answers 404 for an unknown user', async () => {
      const result = await executeDynamic(
        action('/api/user-lookup'),
        { userId: '404' },
        { baseUrl },
      );
      expect(result).toMatchObject({ success: false, statusCode: 404, error: expect.any(String) });
    });
  });

  it('turns a refused connection into a data-mode failure with statusCode 0', async () => {
    const port = await closedPort();
    const result = await executeDynamic(
      action('/api/calculator'),
      { operation: 'add', a: 1, b: 2 },
      { baseUrl: `http://127.0.0.1:${port}` },
    );
    expect(isDataResponse(result)).toBe(true);
    expect(result).toMatchObject({ success: false, statusCode: 0, error: expect.any(String) });
  });

  describe('transaction mode', () => {
    it('sends the values by query and gets a transaction back', async () => {
      const { fetch, sent } = recordingFetch();
      const result = await executeDynamic(
        action('/api/test-tx'),
        { to: RECIPIENT.toLowerCase(), amount: 2.5, urgent: true },
        { baseUrl, userAddress: USER, sourceChain: 43113, fetch },
      );
      expect(isTransactionResponse(result)).toBe(true);
      expect(isDataResponse(result)).toBe(false);
      expect(result).toEqual({
        serializedTransaction: '0x02f86c',
        chainId: 43113,
        params: {
          functionName: 'transfer',
          args: { to: RECIPIENT, amount: 2.5, urgent: true, from: USER },
        },
      });
      expect(sent[0].body).toBeUndefined();
      const query = new URL(sent[0].url).searchParams;
      expect(Object.fromEntries(query)).toEqual({
        to: RECIPIENT.toLowerCase(),
        amount: '2.5',
        urgent: 'true',
        userAddress: USER,
        chainId: '43113',
      });
    });

    it('returns the transaction-mode error body for a missing parameter', async () => {
      const result = await executeDynamic(action('/api/test-tx'), { to: RECIPIENT }, { baseUrl });
      expect(isTransactionError(result)).toBe(true);
      expect(isTransactionResponse(result)).toBe(false);
      expect(result).toMatchObject({ error: 'amount is required', code: 'VALIDATION_ERROR' });
    });
  });
});
