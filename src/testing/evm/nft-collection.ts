import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compile, version } from 'solc';
import type { Abi } from 'viem';
import type { Artifact } from './contracts';

const SOURCE = join(__dirname, 'NftCollection.sol');
/** Compiled once per source and compiler: later runs (and other workers) read the cached artifact. */
const CACHE_DIR = join(__dirname, '..', '..', '..', 'node_modules', '.cache', 'nft-collection');

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

function compileCollection(source: string): Artifact {
  const input = {
    language: 'Solidity',
    sources: { 'NftCollection.sol': { content: source } },
    settings: {
      // OpenZeppelin 5 uses mcopy (Cancun); Hardhat's network runs a later fork.
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { 'NftCollection.sol': { NftCollection: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const { abi, evm } = output.contracts['NftCollection.sol'].NftCollection;
  return { abi, bytecode: `0x${evm.bytecode.object}` };
}

/** The ERC-721 of test/evm/NftCollection.sol, built on @openzeppelin/contracts with solc-js. */
export function nftCollectionArtifact(): Artifact {
  const source = readFileSync(SOURCE, 'utf8');
  const key = createHash('sha256')
    .update(`${version()}\n${require.resolve('@openzeppelin/contracts/package.json')}\n`)
    .update(readFileSync(require.resolve('@openzeppelin/contracts/package.json')))
    .update(source)
    .digest('hex')
    .slice(0, 16);
  const cached = join(CACHE_DIR, `${key}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as Artifact;
  } catch {
    const artifact = compileCollection(source);
    mkdirSync(dirname(cached), { recursive: true });
    // Written aside then renamed: a worker reading at the same time sees all of it or nothing.
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(artifact));
    renameSync(partial, cached);
    return artifact;
  }
}
