import { Logger } from '@nestjs/common';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refusal } from '../../testing/action-refusal';
import { chainsUnderTest } from '../../testing/chain-registry.helper';
import type { RequestContext } from '../../contract/action.types';
import { declaredChains } from './chain-registry';

const { registry } = chainsUnderTest();
const onChains = (source: number, destination?: number) => ({ chains: { source, destination } });
const context = (sourceChain?: number, destinationChain?: number): RequestContext => ({
  requestId: 'r',
  sourceChain,
  destinationChain,
});

describe('ChainRegistry.forRequest', () => {
  it("runs on the action's source chain when the request names none", () => {
    expect(registry.forRequest(onChains(43113), context()).chainId).toBe(43113);
  });

  it('runs on a declared chain the request names, source or destination', () => {
    const crossChain = onChains(43113, 43114);
    expect(registry.forRequest(crossChain, context(43114)).chainId).toBe(43114);
    expect(registry.forRequest(crossChain, context(43113, 43114)).chainId).toBe(43113);
  });

  it.each([
    ['a source chain', context(31337), 'sourceChain'],
    ['a known chain nobody configured', context(1), 'sourceChain'],
    ['a destination chain', context(43113, 43114), 'destinationChain'],
  ])('refuses %s the action does not declare with UNSUPPORTED_CHAIN', async (_, ctx, field) => {
    const error = await refusal(() => registry.forRequest(onChains(43113), ctx));
    const chainId = ctx[field as 'sourceChain' | 'destinationChain'];
    expect(error.getStatus()).toBe(400);
    expect(error.error).toBe(`Chain ${chainId} is not supported by this action (${field}: 43113)`);
    expect(error.details).toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
      data: { code: 'UNSUPPORTED_CHAIN', invalidParams: [field], supportedChains: [43113] },
    });
  });

  it('tells the user which chain the action runs on, by name', async () => {
    const error = await refusal(() => registry.forRequest(onChains(43113), context(1)));
    expect(error.details.message).toBe(
      'This action runs on Avalanche Fuji, not on chain 1 (Ethereum)',
    );
  });
});

describe('ChainRegistry.missing', () => {
  it('names the declared chains the configuration lacks', () => {
    expect(registry.missing(onChains(43113, 43114))).toEqual([]);
    expect(registry.missing(onChains(1, 999))).toEqual([
      'chain 1 (Ethereum) is not in the chain configuration',
      'chain 999 is not in the chain configuration',
    ]);
  });

  it('says when a chain is left out because it is for development only', () => {
    const production = chainsUnderTest({ NODE_ENV: 'production' }).registry;
    expect(production.missing(onChains(31337))).toEqual([
      'chain 31337 (Local development chain) is listed for development only (NODE_ENV=development or test)',
    ]);
  });

  it('counts a destination equal to the source once', () => {
    expect(declaredChains(onChains(43113, 43113))).toEqual([43113]);
  });
});

describe('ChainRegistry.token', () => {
  it('finds tokens by symbol, native coin included, and names an unknown one', async () => {
    const fuji = registry.get(43113)!;
    expect(registry.token(fuji, 'AVAX', 'token').native).toBe(true);
    expect(registry.token(fuji, 'USDC', 'token').decimals).toBe(6);
    const error = await refusal(() => registry.token(fuji, 'WETH', 'tokenIn'));
    expect([error.getStatus(), error.error, error.details.code]).toEqual([
      400,
      'Unknown token WETH for tokenIn on Avalanche Fuji (chain 43113)',
      'UNKNOWN_TOKEN',
    ]);
  });
});

describe('ChainRegistry at boot', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  const file = join(mkdtempSync(join(tmpdir(), 'registry-')), 'chains.json');
  writeFileSync(
    file,
    JSON.stringify({
      chains: {
        43113: { rpcUrl: 'http://192.168.1.20:8545/key/SECRET' },
        43114: { rpcUrl: 'https://api.avax.network/ext/bc/C/rpc' },
      },
    }),
  );

  it('warns in production of a node on a private address, naming the chain, not the URL', () => {
    chainsUnderTest({ CHAIN_CONFIG_FILE: file, NODE_ENV: 'production' }).registry.onModuleInit();
    expect(warn.mock.calls.map(([message]) => message as string)).toEqual([
      'Chain 43113 (Avalanche Fuji) has its RPC node on a loopback or private address (set RPC_URL_43113)',
    ]);
  });

  it.each(['test', 'development'])('stays quiet with NODE_ENV=%s', (NODE_ENV) => {
    chainsUnderTest({ CHAIN_CONFIG_FILE: file, NODE_ENV }).registry.onModuleInit();
    expect(warn).not.toHaveBeenCalled();
  });

  it("stays quiet in production on the default file's public nodes", () => {
    chainsUnderTest({ NODE_ENV: 'production' }).registry.onModuleInit();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('ChainRegistry.read', () => {
  it('reads through the viem client, and turns a failing node into RPC_ERROR without its URL', async () => {
    const { createServer } = await import('node:net');
    // A port that was open a moment ago and is closed now: connection refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const file = join(mkdtempSync(join(tmpdir(), 'registry-read-')), 'chains.json');
    const rpcUrl = `http://127.0.0.1:${port}/key/SECRET`;
    writeFileSync(file, JSON.stringify({ chains: { 43113: { rpcUrl } } }));
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const chains = chainsUnderTest({ CHAIN_CONFIG_FILE: file }).registry;
      const chain = chains.forRequest(onChains(43113), context());
      const raw = await chains
        .client(chain)
        .getGasPrice()
        .catch((e: Error) => e.message);
      // What the raw client would show a user: the node's URL and its key.
      expect(raw).toContain('SECRET');
      const thrown = await refusal(() => chains.read(chain, 'gas price', (c) => c.getGasPrice()));
      const shown = { status: thrown.getStatus(), error: thrown.error, ...thrown.details };
      expect(shown).toMatchObject({
        status: 500,
        code: 'RPC_ERROR',
        data: { code: 'RPC_ERROR' },
        error: `The RPC node of ${chain.name} (chain 43113) could not be reached`,
      });
      expect(JSON.stringify(shown)).not.toMatch(/SECRET|127\.0\.0\.1/);
    } finally {
      warn.mockRestore();
    }
  });
});
