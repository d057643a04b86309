import { Logger } from '@nestjs/common';
import {
  decodeFunctionData,
  erc20Abi,
  ExecutionRevertedError,
  HttpRequestError,
  parseAbiItem,
  parseTransaction,
  type PublicClient,
  TimeoutError,
} from 'viem';
import type { TransactionConfig } from '../chains/chains.config';
import { ChainRpc } from '../chains/chain-rpc';
import { TransactionBuilder } from './transaction-builder';
import { fromWagmiJson } from './tx-serialization';
import { refusal } from '../../testing/action-refusal';
import { chainsUnderTest } from '../../testing/chain-registry.helper';

const TRANSFER = parseAbiItem('function transfer(address to, uint256 value) returns (bool)');
const UNNAMED_TRANSFER = parseAbiItem('function transfer(address, uint256) returns (bool)');
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

function builder(config: Partial<TransactionConfig> = {}): {
  builder: TransactionBuilder;
  rpc: FakeRpc;
} {
  const { registry, rpc } = chainsUnderTest({}, FakeRpc);
  const full: TransactionConfig = {
    serialization: 'rlp',
    fill: 'none',
    simulate: false,
    ...config,
  };
  return { builder: new TransactionBuilder(registry, full, rpc), rpc };
}

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
    display: { args: { token: 'USDC', amount: '1.5' } },
  } as const;
  /** The acting user's request: the transaction is built for them unless `from` says otherwise. */
  const CONTEXT = { requestId: 'req-1', userAddress: USER } as const;

  it('encodes the call, publishes its fragment and shows named args as decimal strings', async () => {
    const { builder: b, rpc } = builder();
    const response = await b.build(spec, CONTEXT);
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

  it("takes a whole ABI with the function named, publishing that function alone (viem's erc20Abi)", async () => {
    const response = await builder().builder.build(
      {
        chainId: 43113,
        to: TOKEN,
        call: { abi: erc20Abi, functionName: 'transfer', args: [USER, 5n] },
        display: { args: { token: 'USDC' } },
      },
      CONTEXT,
    );
    const transfer = erc20Abi.find((item) => item.type === 'function' && item.name === 'transfer');
    expect(response.abi).toEqual([transfer]);
    expect(response.params).toEqual({
      functionName: 'transfer',
      args: { recipient: USER, amount: '5', token: 'USDC' },
    });
    const tx = parseTransaction(response.serializedTransaction as `0x02${string}`);
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data! })).toEqual({
      functionName: 'transfer',
      args: [USER, 5n],
    });
  });

  it('answers the wagmi JSON form when TX_SERIALIZATION=json', async () => {
    const response = await builder({ serialization: 'json' }).builder.build(
      {
        chainId: 43113,
        to: USER,
        value: 10n ** 18n,
        display: { functionName: 'transfer', args: { to: USER, value: 10n ** 18n } },
      },
      CONTEXT,
    );
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

  it('publishes the crossChain details it is given, amounts as decimal text', async () => {
    const response = await builder().builder.build(
      {
        chainId: 43113,
        to: TOKEN,
        data: '0xdeadbeef',
        crossChain: { destinationChainId: 43114, destinationGasLimit: 2n ** 60n },
      },
      CONTEXT,
    );
    expect(response.crossChain).toEqual({
      destinationChainId: 43114,
      destinationGasLimit: (2n ** 60n).toString(),
    });
  });

  it('passes raw calldata through and publishes no params when nothing is shown', async () => {
    const response = await builder().builder.build(
      {
        chainId: 43113,
        to: TOKEN,
        data: '0xdeadbeef',
      },
      CONTEXT,
    );
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
    const tx = parseTransaction(
      (await b.build(spec, CONTEXT)).serializedTransaction as `0x02${string}`,
    );
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

  it('estimates as spec.from when the service names another signer', async () => {
    const { builder: b, rpc } = builder({ fill: 'estimate' });
    let estimatedAs: unknown;
    rpc.node = {
      getTransactionCount: () => 0,
      estimateGas: (request: never) => {
        estimatedAs = request;
        return 1n;
      },
      estimateFeesPerGas: () => ({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    };
    await b.build({ ...spec, from: TOKEN }, CONTEXT);
    expect(estimatedAs).toEqual(expect.objectContaining({ account: TOKEN }));
  });

  it.each([
    [
      'no signer while TX_FILL=estimate',
      { fill: 'estimate' as const },
      spec,
      { requestId: 'req-2' },
      'TX_FILL=estimate needs the address that will sign: declare requiresUser or set spec.from',
    ],
    ['an unknown chain', {}, { ...spec, chainId: 999 }, CONTEXT, 'chain 999 is not configured'],
    [
      'a call whose arguments do not fit its ABI',
      {},
      { ...spec, call: { abi: TRANSFER, args: ['not an address', 1n] } },
      CONTEXT,
      'the call to transfer does not encode: ',
    ],
    [
      'a whole ABI with no function named (what ts-jest lets through untyped)',
      {},
      { ...spec, call: { abi: erc20Abi, args: [USER, 1n] } as never },
      CONTEXT,
      "call.abi is a whole ABI (11 entries) and call.functionName is not set: name the function ({ abi: erc20Abi, functionName: 'transfer', args }) or pass that one function",
    ],
    [
      'a whole ABI naming a function it lacks',
      {},
      { ...spec, call: { abi: erc20Abi, functionName: 'mint', args: [USER, 1n] } },
      CONTEXT,
      'call.abi has no function named "mint"',
    ],
    [
      "a display arg named like one of the call's (it would show in place of what is signed)",
      { simulate: true },
      { ...spec, display: { args: { token: 'USDC', value: '1.5' } } },
      CONTEXT,
      'display.args "value" would replace the argument of the same name of transfer(to, value) in params.args',
    ],
    [
      "two display args named like the call's, however the call names them",
      {},
      {
        ...spec,
        call: { abi: UNNAMED_TRANSFER, args: [USER, 1n] },
        display: { args: { arg0: 'bob', arg1: '1', note: 'hi' } },
      },
      CONTEXT,
      'display.args "arg0", "arg1" would replace the arguments of the same name of transfer(arg0, arg1)',
    ],
  ])(
    'answers BUILDER_MISUSE naming the cause on %s',
    async (_case, config, wrong, context, cause) => {
      const { builder: b, rpc } = builder(config);
      const error = await refusal(() => b.build(wrong, context));
      expect([error.getStatus(), error.details.code]).toEqual([500, 'BUILDER_MISUSE']);
      expect(error.error).toContain(`Transaction builder misuse: ${cause}`);
      expect(rpc.calls).toEqual([]);
    },
  );

  it('answers 400 when the node says the transaction would revert', async () => {
    const { builder: b, rpc } = builder({ fill: 'estimate' });
    rpc.node = {
      getTransactionCount: () => 0,
      estimateGas: () => {
        throw new ExecutionRevertedError({ message: 'execution reverted: TRANSFER_FAILED' });
      },
      estimateFeesPerGas: () => ({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    };
    const error = await refusal(() => b.build(spec, CONTEXT));
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
    const error = await refusal(() => b.build(spec, CONTEXT));
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
      const error = await refusal(() => b.build(spec, CONTEXT));
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
