import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { decodeFunctionData, parseTransaction } from 'viem';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { ERC20_TRANSFER } from '../../src/actions/send-token/erc20.abi';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import type { DynamicAction } from '../../src/contract/action.types';
import { createTestApp } from '../support/app.factory';
import { CrossChainFixtureModule } from '../fixtures/cross-chain.fixture';
import {
  type ExecutionContext,
  type Inputs,
  legacyExecution,
  type MiniAppAction,
  platformAcceptsTransaction,
  proxyExecution,
  type RawRequest,
  sendRaw,
} from '../support/platform-sdk.helper';

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
/** USDC on Avalanche Fuji, as the default chain file lists it. */
const FUJI_USDC = '0x5425890298aed601595a70AB815c96711a31Bc65';

const CALCULATION: Inputs = { operation: 'multiply', a: 6, b: 7 };
const TRANSFER: Inputs = { token: 'USDC', recipient: RECIPIENT, amount: '12.345678' };

type Body = Record<string, unknown>;

describe('The platform calling the service (its two SDK builds, on the wire)', () => {
  let app: NestFastifyApplication;
  let port: number;
  const published: Record<string, DynamicAction> = {};

  const send = async (request: RawRequest): Promise<{ status: number; body: Body }> => {
    const answer = await sendRaw(port, request);
    return { status: answer.status, body: JSON.parse(answer.body) as Body };
  };

  beforeAll(async () => {
    app = await createTestApp({
      actions: [CalculatorModule, SendTokenModule, CrossChainFixtureModule],
      // What the platform sends and accepts, not what the chain says: no node to simulate on.
      env: { TX_SIMULATE: 'off' },
    });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
    // The platform works from what the service publishes: the one-action document of each path.
    for (const path of ['/api/calculator', '/api/send-token', '/api/bridge']) {
      const response = await app.inject({ method: 'GET', url: path });
      published[path] = response.json<{ actions: DynamicAction[] }>().actions[0];
    }
  });
  afterAll(() => app?.close());

  /** The published action as a mini-app of the 2.20 build declares it: chains by legacy name. */
  const legacy = (path: string, chains: MiniAppAction['chains']): MiniAppAction => ({
    ...published[path],
    chains,
  });

  const expectProduct = ({ status, body }: { status: number; body: Body }): void => {
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      statusCode: 200,
      data: { operation: 'multiply', a: 6, b: 7, result: 42 },
    });
  };

  const expectTransfer = ({ status, body }: { status: number; body: Body }): void => {
    expect(status).toBe(200);
    expect(body.chainId).toBe(43113);
    expect(platformAcceptsTransaction(body)).toBe(true);
    const tx = parseTransaction(body.serializedTransaction as `0x02${string}`);
    expect([tx.chainId, tx.to]).toEqual([43113, FUJI_USDC.toLowerCase()]);
    expect(decodeFunctionData({ abi: [ERC20_TRANSFER], data: tx.data! }).args).toEqual([
      RECIPIENT,
      12_345_678n,
    ]);
  };

  describe('the current SDK, through the proxy', () => {
    it('sends what the platform page describes', () => {
      const request = proxyExecution(
        published['/api/calculator'],
        CALCULATION,
        { userAddress: USER, sourceChain: 'fuji' },
        1767225600000,
      );
      expect(request).toEqual({
        target: '/api/calculator?operation=multiply&a=6&b=7',
        headers: [
          ['X-Sherry-Proxy', 'true'],
          ['X-Sherry-Version', '1.0.0'],
          ['Content-Type', 'application/json'],
          ['X-Timestamp', '1767225600000'],
          ['X-Chain-ID', 'fuji'],
          ['X-Wallet-Address', USER],
        ],
        body: `{"action":"Calculate","params":{"operation":"multiply"},"context":{"userAddress":"${USER}","sourceChain":"fuji"}}`,
      });
    });

    it.each<[string, ExecutionContext['sourceChain']]>([
      ['its id', 43113],
      ['its id as text', '43113'],
      ['its display name', 'Avalanche Fuji'],
      ['its other display name', 'Avalanche Fuji Testnet'],
      ['its legacy name', 'fuji'],
      ['a name in other case and spaces', ' AVALANCHE fuji '],
    ])('runs a data-mode and a transaction-mode action on Fuji named by %s', async (_, chain) => {
      const context = { userAddress: USER, sourceChain: chain };
      expectProduct(await send(proxyExecution(published['/api/calculator'], CALCULATION, context)));
      expectTransfer(await send(proxyExecution(published['/api/send-token'], TRANSFER, context)));
    });

    it('answers a mini-app on a chain the action does not declare with UNSUPPORTED_CHAIN', async () => {
      // The SDK's own examples run on `avalanche` (43114); these actions run on Fuji.
      const context = { userAddress: USER, sourceChain: 'avalanche' };
      const data = await send(proxyExecution(published['/api/calculator'], CALCULATION, context));
      expect(data).toEqual({
        status: 400,
        body: expect.objectContaining({
          success: false,
          statusCode: 400,
          error: 'Chain 43114 is not supported by this action (sourceChain: 43113)',
          message: 'This action runs on Avalanche Fuji, not on chain 43114 (Avalanche)',
          data: {
            code: 'UNSUPPORTED_CHAIN',
            invalidParams: ['sourceChain'],
            supportedChains: [43113],
          },
        }),
      });
      const tx = await send(proxyExecution(published['/api/send-token'], TRANSFER, context));
      expect(tx).toEqual({
        status: 400,
        body: {
          error: 'Chain 43114 is not supported by this action (sourceChain: 43113)',
          code: 'UNSUPPORTED_CHAIN',
          message: 'This action runs on Avalanche Fuji, not on chain 43114 (Avalanche)',
          data: {
            code: 'UNSUPPORTED_CHAIN',
            invalidParams: ['sourceChain'],
            supportedChains: [43113],
          },
        },
      });
    });

    it('answers a chain name it does not know with a 400 quoting it', async () => {
      const context = { userAddress: USER, sourceChain: 'narnia' };
      const data = await send(proxyExecution(published['/api/calculator'], CALCULATION, context));
      expect([data.status, data.body.error]).toEqual([
        400,
        "sourceChain 'narnia' is not a known chain",
      ]);
      const tx = await send(proxyExecution(published['/api/send-token'], TRANSFER, context));
      expect(tx).toEqual({
        status: 400,
        body: expect.objectContaining({
          error: "sourceChain 'narnia' is not a known chain",
          code: 'VALIDATION_ERROR',
          data: { invalidParams: ['sourceChain'] },
        }),
      });
    });

    it.each<[string, ExecutionContext['sourceChain'], ExecutionContext['sourceChain']]>([
      ['ids', 43113, 43114],
      ['display names', 'Avalanche Fuji', 'Avalanche C-Chain'],
      ['legacy names', 'fuji', 'avalanche'],
    ])('fills crossChain for an action with a destination (chains as %s)', async (_, from, to) => {
      const context = { userAddress: USER, sourceChain: from, destinationChain: to };
      const request = proxyExecution(published['/api/bridge'], { recipient: RECIPIENT }, context);
      expect(request.headers).toContainEqual(['X-Destination-Chain', String(to)]);
      const { status, body } = await send(request);
      expect(status).toBe(200);
      expect(platformAcceptsTransaction(body)).toBe(true);
      expect(body).toMatchObject({
        chainId: 43113,
        crossChain: {
          destinationChainId: 43114,
          destinationRecipient: RECIPIENT,
          destinationGasLimit: '200000',
        },
      });
    });
  });

  describe('the 2.20 build, calling the service itself', () => {
    it('sends what the platform page describes', () => {
      const request = legacyExecution(legacy('/api/send-token', { source: 'fuji' }), TRANSFER, {
        userAddress: USER,
      });
      expect(request).toEqual({
        target: `/api/send-token?token=USDC&recipient=${RECIPIENT}&amount=12.345678&userAddress=${USER}&chain=fuji`,
        headers: [
          ['Accept', 'application/json'],
          ['x-sdk-version', '1.0.0'],
          ['x-wallet-address', USER],
          ['x-chain-id', 'fuji'],
        ],
      });
    });

    it('runs a data-mode and a transaction-mode action on Fuji by its legacy name', async () => {
      const context = { userAddress: USER };
      const calculator = legacy('/api/calculator', { source: 'fuji' });
      expectProduct(await send(legacyExecution(calculator, CALCULATION, context)));
      const sendToken = legacy('/api/send-token', { source: 'fuji' });
      expectTransfer(await send(legacyExecution(sendToken, TRANSFER, context)));
    });

    it('treats an empty x-wallet-address as no user', async () => {
      const calculator = legacy('/api/calculator', { source: 'fuji' });
      expectProduct(await send(legacyExecution(calculator, CALCULATION, {})));
      const sendToken = legacy('/api/send-token', { source: 'fuji' });
      expect(await send(legacyExecution(sendToken, TRANSFER, {}))).toEqual({
        status: 400,
        body: {
          error: 'x-user-address header is required',
          code: 'VALIDATION_ERROR',
          message: 'Connect a wallet to run this action',
          data: { invalidParams: ['userAddress'] },
        },
      });
    });

    it('reads the destination chain from the query', async () => {
      const bridge = legacy('/api/bridge', { source: 'fuji', destination: 'avalanche' });
      const request = legacyExecution(bridge, { recipient: RECIPIENT }, { userAddress: USER });
      expect(request.target).toMatch(/&chain=fuji&destinationChain=avalanche$/);
      const { status, body } = await send(request);
      expect(status).toBe(200);
      expect(body).toMatchObject({ chainId: 43113, crossChain: { destinationChainId: 43114 } });
    });

    it('answers a legacy name of a chain the action does not declare with UNSUPPORTED_CHAIN', async () => {
      const sendToken = legacy('/api/send-token', { source: 'celo' });
      expect(await send(legacyExecution(sendToken, TRANSFER, { userAddress: USER }))).toEqual({
        status: 400,
        body: {
          error: 'Chain 42220 is not supported by this action (sourceChain: 43113)',
          code: 'UNSUPPORTED_CHAIN',
          message: 'This action runs on Avalanche Fuji, not on chain 42220 (Celo)',
          data: {
            code: 'UNSUPPORTED_CHAIN',
            invalidParams: ['sourceChain'],
            supportedChains: [43113],
          },
        },
      });
    });
  });

  it("lets a browser send both builds' headers (CORS preflight)", async () => {
    const headers = [
      'content-type',
      'x-sherry-proxy',
      'x-sherry-version',
      'x-timestamp',
      'x-chain-id',
      'x-destination-chain',
      'x-wallet-address',
      'x-sdk-version',
    ];
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/send-token',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': headers.join(', '),
      },
    });
    expect(response.statusCode).toBe(200);
    const allowed = String(response.headers['access-control-allow-headers'])
      .split(',')
      .map((name) => name.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(headers));
  });
});
