import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compile, version } from 'solc';
import { type Abi, type Address, parseAbi } from 'viem';
import { ERC20_ERRORS } from '../../src/core/transaction/revert-reason';
import { type Artifact, deploy } from './contracts';
import type { LocalChain, LocalWallet } from './local-chain';

/** The contracts of test/evm/FixtureTokens.sol; each has the same constructor as TestToken.sol. */
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

const SOURCE = join(__dirname, 'FixtureTokens.sol');
/** Compiled once per source and compiler: later runs (and other workers) read the cached artifacts. */
const CACHE_DIR = join(__dirname, '..', '..', 'node_modules', '.cache', 'fixture-tokens');

type Artifacts = Record<FixtureTokenName, Artifact>;

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/** OpenZeppelin's sources, from the npm package, for solc's import callback. */
function findImport(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `not found: ${path}` };
  }
}

function compileFixtures(source: string): Artifacts {
  const input = {
    language: 'Solidity',
    sources: { 'FixtureTokens.sol': { content: source } },
    settings: {
      // OZ's ERC20 and what it imports need no Cancun opcode (unlike the ERC-721 of
      // nft-collection.ts), and 'paris' keeps the bytecode runnable on pre-Cancun forks too.
      evmVersion: 'paris',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: {
        'FixtureTokens.sol': Object.fromEntries(
          FIXTURE_TOKEN_NAMES.map((name) => [name, ['abi', 'evm.bytecode.object']]),
        ),
      },
    },
  };
  const output = JSON.parse(compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contracts = output.contracts['FixtureTokens.sol'];
  const artifact = (name: FixtureTokenName): Artifact => {
    const { abi, evm } = contracts[name];
    return { abi, bytecode: `0x${evm.bytecode.object}` };
  };
  return {
    OzToken: artifact('OzToken'),
    ZeroFirstToken: artifact('ZeroFirstToken'),
    FrozenToken: artifact('FrozenToken'),
  };
}

function loadArtifacts(): Artifacts {
  const source = readFileSync(SOURCE, 'utf8');
  const ozPackage = require.resolve('@openzeppelin/contracts/package.json');
  // The key names the compiler, the OZ release (its sources are imported) and this source.
  const key = createHash('sha256')
    .update(`${version()}\n${ozPackage}\n`)
    .update(readFileSync(ozPackage))
    .update(source)
    .digest('hex')
    .slice(0, 16);
  const cached = join(CACHE_DIR, `${key}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as Artifacts;
  } catch {
    const artifacts = compileFixtures(source);
    mkdirSync(dirname(cached), { recursive: true });
    // Written aside then renamed: a worker reading at the same time sees all of it or nothing.
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(artifacts));
    renameSync(partial, cached);
    return artifacts;
  }
}

let artifacts: Artifacts | undefined;

/** One contract of test/evm/FixtureTokens.sol, compiled (or read from disk) once per process. */
export function fixtureTokenArtifact(name: FixtureTokenName): Artifact {
  artifacts ??= loadArtifacts();
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
