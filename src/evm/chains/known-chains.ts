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

type Row = [id: number, viemName: string | undefined, ...names: string[]];

/** One row a chain: its id, its viem export name, then its names, the display name first. */
const ROWS: readonly Row[] = [
  [1, 'mainnet', 'Ethereum', 'Ethereum Mainnet', 'ethereum'],
  [11155111, 'sepolia', 'Sepolia', 'Sepolia Testnet', 'sepolia'],
  [43114, 'avalanche', 'Avalanche', 'Avalanche C-Chain', 'avalanche'],
  [43113, 'avalancheFuji', 'Avalanche Fuji', 'Avalanche Fuji Testnet', 'fuji'],
  [42220, 'celo', 'Celo', 'Celo Mainnet', 'celo'],
  [44787, 'celoAlfajores', 'Celo Alfajores', 'Celo Alfajores Testnet', 'alfajores'],
  [5000, 'mantle', 'Mantle', 'Mantle Mainnet', 'mantle'],
  [
    5003,
    'mantleSepoliaTestnet',
    'Mantle Sepolia Testnet',
    'MantleSepoliaTestnet',
    'mantleSepoliaTestnet',
  ],
  [8453, 'base', 'Base', 'Base Mainnet', 'base'],
  [84532, 'baseSepolia', 'Base Sepolia Testnet', 'baseSepolia'],
  // viem has no definition of it: a chain file entry gives its RPC URL and native currency.
  [3278, undefined, 'Soshi L1 Testnet', 'Soshi'],
];

/**
 * The platform's chains and the names its SDK accepts for them (display names, then the legacy
 * names the 2.20 build sends), as mini-app-platform.md lists them; plus the local development
 * chain, which has no name the platform knows.
 */
export const KNOWN_CHAINS: readonly KnownChain[] = [
  ...ROWS.map(([id, viemName, ...names]): KnownChain => ({
    id,
    displayName: names[0],
    names,
    viemName,
  })),
  // No name the platform knows: requests name it by its id.
  { id: 31337, displayName: 'Local development chain', names: [], viemName: 'hardhat' },
];

const byId = new Map(KNOWN_CHAINS.map((chain) => [chain.id, chain]));

/**
 * What the platform and viem call a chain, by id; undefined for a chain nobody named (it still
 * works, named by its id).
 */
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
