import { chainIdByName, MAX_CHAIN_TEXT, readChainValue } from './chain-names';
import { KNOWN_CHAINS } from './known-chains';

/** mini-app-platform.md, "Chains": every name the SDK accepts and the chain it stands for. */
const PLATFORM_NAMES: Record<string, number> = {
  Ethereum: 1,
  'Ethereum Mainnet': 1,
  Sepolia: 11155111,
  'Sepolia Testnet': 11155111,
  Avalanche: 43114,
  'Avalanche C-Chain': 43114,
  'Avalanche Fuji': 43113,
  'Avalanche Fuji Testnet': 43113,
  Celo: 42220,
  'Celo Mainnet': 42220,
  'Celo Alfajores': 44787,
  'Celo Alfajores Testnet': 44787,
  Mantle: 5000,
  'Mantle Mainnet': 5000,
  'Mantle Sepolia Testnet': 5003,
  MantleSepoliaTestnet: 5003,
  Base: 8453,
  'Base Mainnet': 8453,
  'Base Sepolia Testnet': 84532,
  baseSepolia: 84532,
  'Soshi L1 Testnet': 3278,
  Soshi: 3278,
  ethereum: 1,
  sepolia: 11155111,
  avalanche: 43114,
  fuji: 43113,
  celo: 42220,
  alfajores: 44787,
  mantle: 5000,
  mantleSepoliaTestnet: 5003,
  base: 8453,
};

describe('chain names', () => {
  it.each(Object.entries(PLATFORM_NAMES))('reads %j as chain %i', (name, id) => {
    expect(chainIdByName(name)).toBe(id);
    expect(chainIdByName(` ${name.toUpperCase()}\t`)).toBe(id);
    expect(chainIdByName(name.toLowerCase())).toBe(id);
  });

  it('knows no other name than the platform lists', () => {
    const listed = KNOWN_CHAINS.flatMap((chain) => chain.names.map((name) => [name, chain.id]));
    expect(Object.fromEntries(listed)).toEqual(PLATFORM_NAMES);
  });

  it.each(['narnia', 'avalanche-fuji', 'Base Sepolia', 'hardhat', '', 'fuji '.repeat(20)])(
    'knows nothing of %j',
    (name) => {
      expect(chainIdByName(name)).toBeUndefined();
    },
  );
});

describe('readChainValue', () => {
  it.each<[unknown, number | undefined]>([
    [43113, 43113],
    ['43113', 43113],
    [' 1 ', 1],
    ['Fuji', 43113],
    [undefined, undefined],
    [null, undefined],
    ['', undefined],
    ['   ', undefined],
  ])('reads %j as chain %s', (value, chainId) => {
    expect(readChainValue(value)).toEqual({ ok: true, chainId });
  });

  it.each<[unknown, string]>([
    [0, 'not-an-id'],
    [-1, 'not-an-id'],
    [1.5, 'not-an-id'],
    [2 ** 60, 'not-an-id'],
    ['0', 'not-an-id'],
    ['1.5', 'not-an-id'],
    ['0x1', 'not-an-id'],
    ['-5', 'not-an-id'],
    ['narnia', 'unknown-name'],
    ['9'.repeat(17), 'not-an-id'],
    [`${' '.repeat(MAX_CHAIN_TEXT)}fuji`, 'unknown-name'],
    [true, 'not-text'],
    [['fuji'], 'not-text'],
  ])('refuses %j (%s)', (value, problem) => {
    expect(readChainValue(value)).toEqual({ ok: false, problem });
  });
});
