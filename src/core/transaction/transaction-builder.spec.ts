import { Logger } from '@nestjs/common';
import {
  decodeFunctionData,
  ExecutionRevertedError,
  HttpRequestError,
  parseAbiItem,
  parseTransaction,
  type PublicClient,
  TimeoutError,
} from 'viem';
import {
  type ChainInfo,
  type ChainsConfig,
  loadChainsConfig,
  type TransactionConfig,
} from '../../config/chains.config';
import type { ActionDeclaration } from '../action.types';
import { ChainRpc } from './chain-rpc';
import { TransactionBuilder } from './transaction-builder';
import { fromWagmiJson } from './tx-serialization';
import { refusal } from '../../../test/action-refusal';
import { loadExternalConfig } from '../../config/external.config';
import { UpstreamBounds } from '../http/upstream-bounds';

const TRANSFER = parseAbiItem('function transfer(address to, uint256 value) returns (bool)');
const USER = '0x52908400098527886E0F7030069857D2E4169EE7';
const TOKEN = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const SECRET_URL = 'https://rpc.example.com/v3/sk_live_SECRET';

/** A node that answers from the test: each method is whatever the test sets. */
class FakeRpc extends ChainRpc {
  node: Partial<Record<keyof PublicClient, (...args: never[]) => unknown>> = {};
  calls: string[] = [];

  override client(): PublicClient {
    return new Proxy({} as PublicClient, {
      get:
        (_target, name: string) =>
        (...args: never[]) => {
          this.calls.push(name);
          const method = this.node[name as keyof PublicClient];
          return method
            ? Promise.resolve().then(() => method(...args))
            : Promise.reject(new Error(name));
        },
    });
  }
}

const chains: ChainsConfig = loadChainsConfig({});
const action = (chainsOf: ActionDeclaration['chains']): ActionDeclaration => ({
  label: 'Test',
  path: '/api/test',
  chains: chainsOf,
  miniApp: { id: 'test', title: 'Test', description: 'Test' },
});

function builder(config: Partial<TransactionConfig> = {}): {
  builder: TransactionBuilder;
  rpc: FakeRpc;
} {
  const rpc = new FakeRpc(chains, new UpstreamBounds(loadExternalConfig({})));
  const full: TransactionConfig = { serialization: 'rlp', fill: 'none', ...config };
  return { builder: new TransactionBuilder(chains, full, rpc), rpc };
}

describe('TransactionBuilder.chainFor', () => {
  const { builder: b } = builder();
  const context = (sourceChain?: number) => ({ requestId: 'r', sourceChain });

  it("uses the action's source chain when the request names none", () => {
    expect(b.chainFor(action({ source: 43113 }), context()).chainId).toBe(43113);
  });

  it('accepts the declared source or destination chain', () => {
    const crossChain = action({ source: 43113, destination: 31337 });
    expect(b.chainFor(crossChain, context(31337)).chainId).toBe(31337);
    expect(b.chainFor(crossChain, context(43113)).chainId).toBe(43113);
  });

  it('refuses another chain with a 400 naming it and the chains it may use', async () => {
    const error = await refusal(() => b.chainFor(action({ source: 43113 }), context(31337)));
    expect(error.getStatus()).toBe(400);
    expect(error.error).toBe('Chain 31337 is not supported by this action (sourceChain: 43113)');
    expect(error.details.code).toBe('UNSUPPORTED_CHAIN');
  });

  it('stops the boot for an action on a chain the configuration lacks', () => {
    expect(() => b.assertConfigured(action({ source: 43113, destination: 1 }))).toThrow(
      'Action /api/test runs on chain 1, which the chain configuration does not list',
    );
    expect(() => b.assertConfigured(action({ source: 43113 }))).not.toThrow();
  });

  it('finds tokens by symbol, native coin included, and names an unknown one', async () => {
    const fuji = chains.chains.get(43113) as ChainInfo;
    expect(b.token(fuji, 'AVAX', 'token').native).toBe(true);
    expect(b.token(fuji, 'USDC', 'token').decimals).toBe(6);
    const error = await refusal(() => b.token(fuji, 'WETH', 'tokenIn'));
    expect([error.getStatus(), error.error, error.details.code]).toEqual([
      400,
      'Unknown token WETH for tokenIn on Avalanche Fuji (chain 43113)',
      'UNKNOWN_TOKEN',
    ]);
  });
});

describe('TransactionBuilder.build', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  const spec = {
    chainId: 43113,
    to: TOKEN,
    call: { abi: TRANSFER, args: [USER, 2n ** 80n] as const },
    from: USER,
    display: { args: { token: 'USDC', amount: '1.5' } },
  } as const;

  it('encodes the call, publishes its fragment and shows named args as decimal strings', async () => {
    const { builder: b, rpc } = builder();
    const response = await b.build(spec);
    expect(response.chainId).toBe(43113);
    expect(response.abi).toEqual([TRANSFER]);
    expect(response.params).toEqual({
      functionName: 'transfer',
      args: { to: USER, value: (2n ** 80n).toString(), token: 'USDC', amount: '1.5' },
    });
    const tx = parseTransaction(response.serializedTransaction as `0x02${string}`);
    expect(tx.to?.toLowerCase()).toBe(TOKEN.toLowerCase());
    expect(decodeFunctionData({ abi: [TRANSFER], data: tx.data! }).args).toEqual([USER, 2n ** 80n]);
    expect(tx).not.toHaveProperty('gas');
    expect(rpc.calls).toEqual([]);
  });

  it('answers the wagmi JSON form when TX_SERIALIZATION=json', async () => {
    const response = await builder({ serialization: 'json' }).builder.build({
      chainId: 43113,
      to: USER,
      value: 10n ** 18n,
      display: { functionName: 'transfer', args: { to: USER, value: 10n ** 18n } },
    });
    expect(fromWagmiJson(response.serializedTransaction)).toEqual({
      type: 'eip1559',
      chainId: 43113,
      to: USER,
      value: 10n ** 18n,
    });
    expect(response).not.toHaveProperty('abi');
    expect(response.params).toEqual({
      functionName: 'transfer',
      args: { to: USER, value: '1000000000000000000' },
    });
  });

  it('passes raw calldata through and publishes no params when nothing is shown', async () => {
    const response = await builder().builder.build({
      chainId: 43113,
      to: TOKEN,
      data: '0xdeadbeef',
    });
    expect(Object.keys(response).sort()).toEqual(['chainId', 'serializedTransaction']);
    expect(parseTransaction(response.serializedTransaction as `0x02${string}`).data).toBe(
      '0xdeadbeef',
    );
  });

  it('fills nonce, gas with a 20 % margin and fees from the node when TX_FILL=estimate', async () => {
    const { builder: b, rpc } = builder({ fill: 'estimate' });
    let estimatedAs: unknown;
    rpc.node = {
      getTransactionCount: () => 7,
      estimateGas: (request: never) => {
        estimatedAs = request;
        return 50_000n;
      },
      estimateFeesPerGas: () => ({ maxFeePerGas: 3_000n, maxPriorityFeePerGas: 2_000n }),
    };
    const tx = parseTransaction((await b.build(spec)).serializedTransaction as `0x02${string}`);
    expect(tx).toEqual(
      expect.objectContaining({
        nonce: 7,
        gas: 60_000n,
        maxFeePerGas: 3_000n,
        maxPriorityFeePerGas: 2_000n,
      }),
    );
    expect(estimatedAs).toEqual(expect.objectContaining({ account: USER, to: TOKEN }));
  });

  it('answers 400 when the node says the transaction would revert', async () => {
    const { builder: b, rpc } = builder({ fill: 'estimate' });
    rpc.node = {
      getTransactionCount: () => 0,
      estimateGas: () => {
        throw new ExecutionRevertedError({ message: 'execution reverted: TRANSFER_FAILED' });
      },
      estimateFeesPerGas: () => ({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    };
    const error = await refusal(() => b.build(spec));
    expect(error.getStatus()).toBe(400);
    expect(error.details.code).toBe('TRANSACTION_WOULD_FAIL');
    expect(error.error).toMatch(/^The transaction would fail on Avalanche Fuji: .*TRANSFER_FAILED/);
  });

  it.each<[string, Partial<Record<keyof PublicClient, () => unknown>>]>([
    ['a gas estimate of 0', { estimateGas: () => 0n }],
    ['a negative nonce', { getTransactionCount: () => -1 }],
    ['no fees', { estimateFeesPerGas: () => ({}) }],
    [
      'a priority fee above the cap',
      { estimateFeesPerGas: () => ({ maxFeePerGas: 1n, maxPriorityFeePerGas: 2n }) },
    ],
  ])('answers RPC_ERROR, not a broken transaction, on %s', async (_case, override) => {
    const { builder: b, rpc } = builder({ fill: 'estimate' });
    rpc.node = {
      getTransactionCount: () => 7,
      estimateGas: () => 50_000n,
      estimateFeesPerGas: () => ({ maxFeePerGas: 3_000n, maxPriorityFeePerGas: 2_000n }),
      ...override,
    };
    const error = await refusal(() => b.build(spec));
    expect([error.getStatus(), error.details.code, error.error]).toEqual([
      500,
      'RPC_ERROR',
      'The RPC node of Avalanche Fuji (chain 43113) sent an answer of the wrong shape',
    ]);
  });

  it.each([
    [
      'unreachable',
      new HttpRequestError({ url: SECRET_URL, details: 'fetch failed' }),
      'could not be reached',
    ],
    ['slow', new TimeoutError({ body: {}, url: SECRET_URL }), 'did not answer in time'],
  ])(
    'answers 500 naming the chain, never the URL, when the node is %s',
    async (_case, thrown, phrase) => {
      const { builder: b, rpc } = builder({ fill: 'estimate' });
      const fail = (): never => {
        throw thrown;
      };
      rpc.node = { getTransactionCount: fail, estimateGas: fail, estimateFeesPerGas: fail };
      const error = await refusal(() => b.build(spec));
      expect(error.getStatus()).toBe(500);
      expect(error.details.code).toBe('RPC_ERROR');
      expect(error.error).toBe(`The RPC node of Avalanche Fuji (chain 43113) ${phrase}`);
      expect(JSON.stringify({ error: error.error, details: error.details })).not.toMatch(
        /https?:|SECRET/,
      );
      expect(warn.mock.calls.flat().join(' ')).not.toMatch(/https?:|SECRET/);
    },
  );
});
