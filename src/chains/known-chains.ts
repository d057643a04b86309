import type { Chain } from 'viem';

/**
 * viem's chain definitions, loaded at run time: the type declarations of `viem/chains` re-export
 * its Tempo chains, which pull in ox's TypeScript sources (browser WebAuthn types) that this
 * Node-only compilation cannot check. They are read with viem's own `Chain` type instead.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const viem = require('viem/chains') as Readonly<Record<string, Chain | undefined>>;

/** A chain the service knows by name, whether or not the chain file configures it. */
export interface KnownChain {
  id: number;
  /** What answers and logs call it. */
  displayName: string;
  /** Every name a request may use for it, the display name included. */
  names: readonly string[];
  /** viem's definition: defaults for the native currency and RPC URL of a chain file entry. */
  definition?: Chain;
}

/**
 * The platform's chains and the names its SDK accepts for them (display names, then the legacy
 * names the 2.20 build sends), as mini-app-platform.md lists them; plus the local development
 * chain, which has no name the platform knows.
 */
export const KNOWN_CHAINS: readonly KnownChain[] = [
  {
    id: 1,
    displayName: 'Ethereum',
    names: ['Ethereum', 'Ethereum Mainnet', 'ethereum'],
    definition: viem.mainnet,
  },
  {
    id: 11155111,
    displayName: 'Sepolia',
    names: ['Sepolia', 'Sepolia Testnet', 'sepolia'],
    definition: viem.sepolia,
  },
  {
    id: 43114,
    displayName: 'Avalanche',
    names: ['Avalanche', 'Avalanche C-Chain', 'avalanche'],
    definition: viem.avalanche,
  },
  {
    id: 43113,
    displayName: 'Avalanche Fuji',
    names: ['Avalanche Fuji', 'Avalanche Fuji Testnet', 'fuji'],
    definition: viem.avalancheFuji,
  },
  {
    id: 42220,
    displayName: 'Celo',
    names: ['Celo', 'Celo Mainnet', 'celo'],
    definition: viem.celo,
  },
  {
    id: 44787,
    displayName: 'Celo Alfajores',
    names: ['Celo Alfajores', 'Celo Alfajores Testnet', 'alfajores'],
    definition: viem.celoAlfajores,
  },
  {
    id: 5000,
    displayName: 'Mantle',
    names: ['Mantle', 'Mantle Mainnet', 'mantle'],
    definition: viem.mantle,
  },
  {
    id: 5003,
    displayName: 'Mantle Sepolia Testnet',
    names: ['Mantle Sepolia Testnet', 'MantleSepoliaTestnet', 'mantleSepoliaTestnet'],
    definition: viem.mantleSepoliaTestnet,
  },
  { id: 8453, displayName: 'Base', names: ['Base', 'Base Mainnet', 'base'], definition: viem.base },
  {
    id: 84532,
    displayName: 'Base Sepolia Testnet',
    names: ['Base Sepolia Testnet', 'baseSepolia'],
    definition: viem.baseSepolia,
  },
  // viem has no definition of it: a chain file entry gives its RPC URL and native currency.
  { id: 3278, displayName: 'Soshi L1 Testnet', names: ['Soshi L1 Testnet', 'Soshi'] },
  { id: 31337, displayName: 'Local development chain', names: [], definition: viem.hardhat },
];

const byId = new Map(KNOWN_CHAINS.map((chain) => [chain.id, chain]));

export function knownChain(id: number): KnownChain | undefined {
  return byId.get(id);
}
