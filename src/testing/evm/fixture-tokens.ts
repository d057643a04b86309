import { type Address, parseAbi } from 'viem';
import { ERC20_ERRORS } from '../../evm/transaction/revert-reason';
import { type Artifact, deploy } from './contracts';
import type { LocalChain, LocalWallet } from './local-chain';
import { compileWithOpenZeppelin } from './oz-compile';

/** The contracts of src/testing/evm/FixtureTokens.sol; each has the same constructor as TestToken.sol. */
export type FixtureTokenName = 'OzToken' | 'ZeroFirstToken' | 'FrozenToken';

export const FIXTURE_TOKEN_NAMES: readonly FixtureTokenName[] = [
  'OzToken',
  'ZeroFirstToken',
  'FrozenToken',
];

export interface FixtureTokenParams {
  name: string;
  symbol: string;
  decimals: number;
  supply: bigint;
}

/**
 * OpenZeppelin 5's ERC-20 custom errors (interfaces/draft-IERC6093.sol), as the service decodes
 * them: what an OzToken or ZeroFirstToken reverts with. `Error(string)` and `Panic(uint256)` need
 * no entry: viem decodes those without being told.
 */
export const OZ_ERC20_ERRORS_ABI = ERC20_ERRORS;

/**
 * The ERC-20 calls the fixtures are exercised with, which ERC20_ABI of ./contracts partly lacks
 * (allowance, transferFrom), plus OZ's errors so viem's simulateContract names them too.
 */
export const FIXTURE_TOKEN_ABI = [
  ...parseAbi([
    'function name() view returns (string)',
    'function symbol() view returns (string)',
    'function decimals() view returns (uint8)',
    'function totalSupply() view returns (uint256)',
    'function balanceOf(address owner) view returns (uint256)',
    'function allowance(address owner, address spender) view returns (uint256)',
    'function approve(address spender, uint256 value) returns (bool)',
    'function transfer(address to, uint256 value) returns (bool)',
    'function transferFrom(address from, address to, uint256 value) returns (bool)',
  ]),
  ...OZ_ERC20_ERRORS_ABI,
] as const;

type Artifacts = Record<FixtureTokenName, Artifact>;

let artifacts: Artifacts | undefined;

/** One contract of src/testing/evm/FixtureTokens.sol, compiled (or read from disk) once per process. */
export function fixtureTokenArtifact(name: FixtureTokenName): Artifact {
  // OpenZeppelin's ERC20 needs no Cancun opcode; 'paris' runs on pre-Cancun forks too.
  artifacts ??= compileWithOpenZeppelin('FixtureTokens.sol', FIXTURE_TOKEN_NAMES, 'paris');
  return artifacts[name];
}

/** Deploys a fixture token from the wallet, its whole supply minted to the wallet's account. */
export function deployFixtureToken(
  chain: LocalChain,
  wallet: LocalWallet,
  name: FixtureTokenName,
  { name: tokenName, symbol, decimals, supply }: FixtureTokenParams,
): Promise<Address> {
  return deploy(chain, wallet, fixtureTokenArtifact(name), [tokenName, symbol, decimals, supply]);
}
