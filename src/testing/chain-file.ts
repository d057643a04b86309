import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestChain } from './chain-types';

/** A port nothing listens on (TCP port 1, tcpmux, is never served here): a node that is down. */
const CLOSED_NODE = 'http://127.0.0.1:1';

/**
 * Writes a CHAIN_CONFIG_FILE for the app under test (`{chains: {<id>: entry}}`, the format of
 * docs/chains-and-transactions.md) in a fresh temporary folder; returns its path.
 */
export function writeChainFile(chains: Record<number, Record<string, unknown>>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'chain-config-')), 'chains.json');
  writeFileSync(path, JSON.stringify({ chains }));
  return path;
}

/**
 * The test chain's chain file with its node down: the same entry (tokens, routers, contracts)
 * on a port nothing listens on, so an action that looks up a token still reaches the node and
 * meets it down (a 500 `RPC_ERROR`), rather than a 400 `UNKNOWN_TOKEN` of an entry without its
 * tokens. Returns the new file's path, for `env: {CHAIN_CONFIG_FILE}`.
 */
export function writeNodeDownChainFile(testChain: Pick<TestChain, 'chain' | 'chainFile'>): string {
  const { chains } = JSON.parse(readFileSync(testChain.chainFile, 'utf8')) as {
    chains: Record<number, Record<string, unknown>>;
  };
  const { chainId } = testChain.chain;
  return writeChainFile({ ...chains, [chainId]: { ...chains[chainId], rpcUrl: CLOSED_NODE } });
}
