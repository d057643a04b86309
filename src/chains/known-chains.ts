import type { Chain } from 'viem';

/** A chain the service knows by name, whether or not the chain file configures it. */
export interface KnownChain {
  id: number;
  /** What answers and logs call it. */
  displayName: string;
  /** Every name a request may use for it, the display name included. */
  names: readonly string[];
  /** Its export name in `viem/chains`: defaults for a chain file entry's native coin and RPC URL. */
  viemName?: string;
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
    viemName: 'mainnet',
  },
  {
    id: 11155111,
    displayName: 'Sepolia',
    names: ['Sepolia', 'Sepolia Testnet', 'sepolia'],
    viemName: 'sepolia',
  },
  {
    id: 43114,
    displayName: 'Avalanche',
    names: ['Avalanche', 'Avalanche C-Chain', 'avalanche'],
    viemName: 'avalanche',
  },
  {
    id: 43113,
    displayName: 'Avalanche Fuji',
    names: ['Avalanche Fuji', 'Avalanche Fuji Testnet', 'fuji'],
    viemName: 'avalancheFuji',
  },
  {
    id: 42220,
    displayName: 'Celo',
    names: ['Celo', 'Celo Mainnet', 'celo'],
    viemName: 'celo',
  },
  {
    id: 44787,
    displayName: 'Celo Alfajores',
    names: ['Celo Alfajores', 'Celo Alfajores Testnet', 'alfajores'],
    viemName: 'celoAlfajores',
  },
  {
    id: 5000,
    displayName: 'Mantle',
    names: ['Mantle', 'Mantle Mainnet', 'mantle'],
    viemName: 'mantle',
  },
  {
    id: 5003,
    displayName: 'Mantle Sepolia Testnet',
    names: ['Mantle Sepolia Testnet', 'MantleSepoliaTestnet', 'mantleSepoliaTestnet'],
    viemName: 'mantleSepoliaTestnet',
  },
  { id: 8453, displayName: 'Base', names: ['Base', 'Base Mainnet', 'base'], viemName: 'base' },
  {
    id: 84532,
    displayName: 'Base Sepolia Testnet',
    names: ['Base Sepolia Testnet', 'baseSepolia'],
    viemName: 'baseSepolia',
  },
  // viem has no definition of it: a chain file entry gives its RPC URL and native currency.
  { id: 3278, displayName: 'Soshi L1 Testnet', names: ['Soshi L1 Testnet', 'Soshi'] },
  { id: 31337, displayName: 'Local development chain', names: [], viemName: 'hardhat' },
];

const byId = new Map(KNOWN_CHAINS.map((chain) => [chain.id, chain]));

export function knownChain(id: number): KnownChain | undefined {
  return byId.get(id);
}

let viemChains: Readonly<Record<string, Chain | undefined>> | undefined;

/**
 * viem's definition of a known chain. `viem/chains` (some 700 definitions, a third of a second
 * to load) is loaded on the first call: only when a chain file entry leaves out what viem knows.
 * It is read at run time with viem's `Chain` type because its type declarations re-export the
 * Tempo chains, which pull in ox's TypeScript sources (browser WebAuthn types) that this
 * Node-only compilation cannot check.
 */
export function viemDefinition(chain: KnownChain | undefined): Chain | undefined {
  if (chain?.viemName === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  viemChains ??= require('viem/chains') as Readonly<Record<string, Chain | undefined>>;
  return viemChains[chain.viemName];
}
