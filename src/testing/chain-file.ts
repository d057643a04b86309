import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes a CHAIN_CONFIG_FILE for the app under test (`{chains: {<id>: entry}}`, the format of
 * docs/chains-and-transactions.md) in a fresh temporary folder; returns its path.
 */
export function writeChainFile(chains: Record<number, Record<string, unknown>>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'chain-config-')), 'chains.json');
  writeFileSync(path, JSON.stringify({ chains }));
  return path;
}
