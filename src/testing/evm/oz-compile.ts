import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compile, version } from 'solc';
import type { Abi } from 'viem';
import type { Artifact } from './contracts';

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

function compileContracts(
  file: string,
  source: string,
  names: readonly string[],
  evmVersion: string,
): Record<string, Artifact> {
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      evmVersion,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: {
        [file]: Object.fromEntries(names.map((name) => [name, ['abi', 'evm.bytecode.object']])),
      },
    },
  };
  const output = JSON.parse(compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return Object.fromEntries(
    names.map((name) => {
      const { abi, evm } = output.contracts[file][name];
      return [name, { abi, bytecode: `0x${evm.bytecode.object}` }];
    }),
  );
}

/**
 * Contracts of a Solidity file beside this one that imports @openzeppelin/contracts, compiled
 * with solc-js once per source, compiler and OpenZeppelin release: later runs (and other Jest
 * workers) read the artifacts cached under node_modules/.cache/<file>.
 */
export function compileWithOpenZeppelin<N extends string>(
  file: string,
  names: readonly N[],
  evmVersion: string,
): Record<N, Artifact> {
  const source = readFileSync(join(__dirname, file), 'utf8');
  const ozPackage = require.resolve('@openzeppelin/contracts/package.json');
  const key = createHash('sha256')
    .update(`${version()}\n${ozPackage}\n${evmVersion}\n${names.join(',')}\n`)
    .update(readFileSync(ozPackage))
    .update(source)
    .digest('hex')
    .slice(0, 16);
  const cached = join(__dirname, '..', '..', '..', 'node_modules', '.cache', file, `${key}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as Record<N, Artifact>;
  } catch {
    const artifacts = compileContracts(file, source, names, evmVersion);
    mkdirSync(dirname(cached), { recursive: true });
    // Written aside then renamed: a worker reading at the same time sees all of it or nothing.
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(artifacts));
    renameSync(partial, cached);
    return artifacts;
  }
}
