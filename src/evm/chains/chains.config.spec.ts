import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultTokenOptions, loadChainsConfig, loadTransactionConfig } from './chains.config';

const dir = mkdtempSync(join(tmpdir(), 'chains-config-'));
let files = 0;
function chainFile(content: unknown): string {
  const path = join(dir, `chains-${files++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const TOKEN_A = '0x52908400098527886E0F7030069857D2E4169EE7';
const TOKEN_B = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
/** EIP-55 test vectors whose checksummed form is all lower case. */
const PAIR = '0xde709f2102306220921060314715629080e2fb77';
const ROUTER = '0x27b1fdb04752bbc536007a920d24acb045561c26';

const validChain = () => ({
  name: 'Test chain',
  rpcUrl: 'http://127.0.0.1:8545',
  nativeCurrency: { symbol: 'ETH', decimals: 18 },
  tokens: {
    AAA: { address: TOKEN_A.toLowerCase(), decimals: 6 },
    BBB: { address: TOKEN_B, decimals: 18 },
  },
  routers: { main: ROUTER },
  pools: [{ name: 'Main AAA/BBB', address: PAIR, router: 'main', tokens: ['AAA', 'BBB'] }],
});

describe('loadChainsConfig', () => {
  it('ships a default with the local development chain, Avalanche Fuji and Avalanche', () => {
    const { chains, timeoutMs, developmentOnly } = loadChainsConfig({ NODE_ENV: 'test' });
    expect([...chains.keys()]).toEqual([31337, 43113, 43114]);
    expect(developmentOnly).toEqual([]);
    const fuji = chains.get(43113)!;
    expect(fuji.native).toEqual(
      expect.objectContaining({ symbol: 'AVAX', native: true, decimals: 18 }),
    );
    expect(fuji.tokens.get('USDC')).toEqual(
      expect.objectContaining({ decimals: 6, native: false }),
    );
    expect(fuji.names).toEqual(['Avalanche Fuji', 'Avalanche Fuji Testnet', 'fuji']);
    expect(chains.get(31337)!.pools.map((p) => p.name)).toEqual([
      'Alpha WETH/USDC',
      'Beta WETH/USDC',
      'Alpha USDC/USDT',
    ]);
    expect([...chains.get(31337)!.routers.keys()]).toEqual(['alpha', 'beta']);
    expect(chains.get(43114)).toMatchObject({ name: 'Avalanche', names: expect.any(Array) });
    expect(timeoutMs).toBe(5000);
  });

  it.each([
    ['NODE_ENV unset (production)', {}],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
  ])('leaves the local development chain out with %s', (_case, env) => {
    const { chains, developmentOnly } = loadChainsConfig(env);
    expect([...chains.keys()]).toEqual([43113, 43114]);
    expect(developmentOnly).toEqual([31337]);
    expect(loadChainsConfig({ NODE_ENV: 'development' }).chains.has(31337)).toBe(true);
  });

  it("fills a known chain's name, native coin and RPC URL from viem and the platform", () => {
    const { chains } = loadChainsConfig({
      CHAIN_CONFIG_FILE: chainFile({
        chains: { 43114: {}, 44787: { nativeCurrency: { priceId: 'celo' } } },
      }),
    });
    expect(chains.get(43114)).toMatchObject({
      name: 'Avalanche',
      names: ['Avalanche', 'Avalanche C-Chain', 'avalanche'],
      rpcUrl: 'https://api.avax.network/ext/bc/C/rpc',
      native: { symbol: 'AVAX', decimals: 18, native: true },
    });
    // The platform's display name wins over viem's ("Alfajores"); the file's fields over both.
    expect(chains.get(44787)).toMatchObject({
      name: 'Celo Alfajores',
      native: { symbol: 'A-CELO', decimals: 18, priceId: 'celo' },
    });
  });

  it('refuses an unknown chain without a name and a development flag that is not a boolean', () => {
    const file = chainFile({
      chains: {
        9: { ...validChain(), name: undefined },
        7: { ...validChain(), development: 'yes' },
      },
    });
    expect(() => loadChainsConfig({ CHAIN_CONFIG_FILE: file })).toThrow(
      [
        `Invalid chain configuration (CHAIN_CONFIG_FILE=${file}):`,
        '  - chains.7.development: expected true or false',
        '  - chains.9.name: expected non-empty text',
      ].join('\n'),
    );
  });

  it('reads CHAIN_CONFIG_FILE, checksums addresses and defaults the pool fee to 0.3 %', () => {
    const { chains } = loadChainsConfig({
      CHAIN_CONFIG_FILE: chainFile({ chains: { 7: validChain() } }),
    });
    const chain = chains.get(7)!;
    expect(chain.tokens.get('AAA')?.address).toBe(TOKEN_A);
    expect(chain.pools).toEqual([
      {
        name: 'Main AAA/BBB',
        address: PAIR,
        router: ROUTER,
        routerName: 'main',
        tokens: ['AAA', 'BBB'],
        feeBps: 30,
      },
    ]);
  });

  it('reads an optional ERC-721 collection per chain, checksummed, and names a bad one', () => {
    const file = chainFile({
      chains: { 5: { ...validChain(), nftCollection: TOKEN_B.toLowerCase() }, 6: validChain() },
    });
    const { chains } = loadChainsConfig({ CHAIN_CONFIG_FILE: file });
    expect(chains.get(5)!.nftCollection).toBe(TOKEN_B);
    expect(chains.get(6)!).not.toHaveProperty('nftCollection');
    const bad = chainFile({ chains: { 5: { ...validChain(), nftCollection: 'nope' } } });
    expect(() => loadChainsConfig({ CHAIN_CONFIG_FILE: bad })).toThrow(
      'chains.5.nftCollection: expected an address (0x followed by 40 hex digits)',
    );
  });

  it('takes RPC_URL_<chainId> over the file and EXTERNAL_TIMEOUT_MS as the bound', () => {
    const { chains, timeoutMs } = loadChainsConfig({
      RPC_URL_43113: 'https://rpc.example.com/key/abc',
      EXTERNAL_TIMEOUT_MS: '750',
    });
    expect(chains.get(43113)!.rpcUrl).toBe('https://rpc.example.com/key/abc');
    expect(timeoutMs).toBe(750);
  });

  it('names a file it cannot read or parse', () => {
    expect(() => loadChainsConfig({ CHAIN_CONFIG_FILE: join(dir, 'missing.json') })).toThrow(
      /^Invalid chain configuration: CHAIN_CONFIG_FILE=.*missing\.json: ENOENT/,
    );
    expect(() => loadChainsConfig({ CHAIN_CONFIG_FILE: chainFile('{ nope') })).toThrow(
      /CHAIN_CONFIG_FILE=.*: not valid JSON$/,
    );
  });

  it('names every problem of a bad file by its path, without echoing RPC URLs', () => {
    const bad = validChain();
    const file = chainFile({
      chains: {
        abc: validChain(),
        5: {
          ...bad,
          rpcUrl: 'ftp://secret-key@10.0.0.1',
          tokens: {
            AAA: { address: '0x123', decimals: 6 },
            ETH: { address: TOKEN_B, decimals: 99 },
          },
          pools: [
            { name: 'x', address: PAIR, router: 'nowhere', tokens: ['AAA', 'BBB'] },
            { name: 'y', address: PAIR, router: 'main', tokens: ['ETH', 'ETH'], feeBps: 10_000 },
          ],
        },
      },
    });
    let message = '';
    try {
      loadChainsConfig({ CHAIN_CONFIG_FILE: file });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      `Invalid chain configuration (CHAIN_CONFIG_FILE=${file}):`,
      '  - chains.5.rpcUrl: no http(s) RPC URL: set RPC_URL_5 or rpcUrl in the file',
      '  - chains.5.tokens.AAA.address: expected an address (0x followed by 40 hex digits)',
      '  - chains.5.tokens.ETH.decimals: expected an integer from 0 to 36',
      '  - chains.5.tokens.ETH: same symbol as the native coin',
      '  - chains.5.pools.0.router: not a key of routers',
      '  - chains.5.pools.0.tokens: expected two different ERC-20 symbols of this chain',
      '  - chains.5.pools.1.feeBps: expected an integer from 0 to 9999',
      '  - chains.5.pools.1.tokens: expected two different ERC-20 symbols of this chain',
      '  - chains.abc: a chain is keyed by its integer chain id',
    ]);
    expect(message).not.toContain('secret');
  });

  it('refuses a file without chains, and a chain without any RPC URL', () => {
    expect(() => loadChainsConfig({ CHAIN_CONFIG_FILE: chainFile({ chains: {} }) })).toThrow(
      'chains: expected an object with at least one chain',
    );
    const noRpc: Record<string, unknown> = validChain();
    delete noRpc.rpcUrl;
    expect(() =>
      loadChainsConfig({ CHAIN_CONFIG_FILE: chainFile({ chains: { 9: noRpc } }) }),
    ).toThrow('chains.9.rpcUrl: no http(s) RPC URL: set RPC_URL_9 or rpcUrl in the file');
    const file = chainFile({ chains: { 9: noRpc } });
    expect(
      loadChainsConfig({ CHAIN_CONFIG_FILE: file, RPC_URL_9: 'http://127.0.0.1:1' }).chains.get(9)
        ?.rpcUrl,
    ).toBe('http://127.0.0.1:1');
    expect(() =>
      loadChainsConfig({ CHAIN_CONFIG_FILE: file, RPC_URL_9: 'wss://key-123@rpc.example' }),
    ).toThrow(/- RPC_URL_9: not an http\(s\) URL$/);
    expect(() =>
      loadChainsConfig({
        CHAIN_CONFIG_FILE: chainFile({
          chains: { 9: { ...noRpc, nativeCurrency: { decimals: 18 } } },
        }),
        RPC_URL_9: 'http://127.0.0.1:1',
      }),
    ).toThrow('chains.9.nativeCurrency.symbol: expected non-empty text');
  });
});

describe('loadTransactionConfig', () => {
  it('defaults to unsigned RLP with nothing filled and simulation on, and reads the switches', () => {
    expect(loadTransactionConfig({})).toEqual({
      serialization: 'rlp',
      fill: 'none',
      simulate: true,
    });
    expect(
      loadTransactionConfig({ TX_SERIALIZATION: 'json', TX_FILL: 'estimate', TX_SIMULATE: 'off' }),
    ).toEqual({ serialization: 'json', fill: 'estimate', simulate: false });
  });

  it.each([
    ['TX_SERIALIZATION', 'hex'],
    ['TX_FILL', 'always'],
    ['TX_SIMULATE', 'false'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadTransactionConfig({ [name]: value })).toThrow(`${name}="${value}"`);
  });
});

describe('defaultTokenOptions', () => {
  it('lists the default file symbols of the chains asked for, native coin on request', () => {
    expect(defaultTokenOptions([43113], { native: true }).map((o) => o.value)).toEqual([
      'AVAX',
      'WAVAX',
      'USDC',
      'USDT',
    ]);
    expect(defaultTokenOptions([43113, 31337], { native: false }).map((o) => o.value)).toEqual([
      'WAVAX',
      'USDC',
      'USDT',
      'WETH',
    ]);
  });
});
