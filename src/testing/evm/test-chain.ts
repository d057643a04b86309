import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { deploy } from './contracts';
import type { DexFixture, LocalChain, TestChain, TestChainOptions } from '../chain-types';
import { deployDexFixture, fixtureChainEntry, fundUser } from './dex-fixture';
import { startLocalChain } from './local-chain';

export type { TestChain, TestChainOptions } from '../chain-types';
import { nftCollectionArtifact } from './nft-collection';

/** The chain every shipped action declares: the local chain passes for it, as in the e2e suites. */
export const SHIPPED_CHAIN_ID = 43113;
const DEFAULT_CHAIN_FILE = join(__dirname, '..', '..', 'evm', 'chains', 'chains.default.json');

type ChainEntry = Record<string, unknown> & {
  nativeCurrency?: { symbol?: string; decimals?: number; priceId?: string };
  tokens?: Record<string, { priceId?: string }>;
};

function defaultChains(): Record<string, ChainEntry> {
  return (
    JSON.parse(readFileSync(DEFAULT_CHAIN_FILE, 'utf8')) as { chains: Record<string, ChainEntry> }
  ).chains;
}

/**
 * The local chain under the default file's entry for that id: the same symbols (what the actions
 * offer in their token menus) and price ids, the addresses of the contracts just deployed.
 */
function localEntry(
  base: ChainEntry | undefined,
  chain: LocalChain,
  fixture: DexFixture,
  nftCollection: Address,
): ChainEntry {
  const native = base?.nativeCurrency?.symbol ?? 'ETH';
  const entry = fixtureChainEntry(fixture, {
    name: `Local chain ${chain.chainId} (npm run dev)`,
    rpcUrl: chain.rpcUrl,
    native,
    wrapped: `W${native}`,
  }) as ChainEntry;
  const priceOf = (symbol: string): string | undefined => base?.tokens?.[symbol]?.priceId;
  for (const [symbol, token] of Object.entries(entry.tokens ?? {})) {
    const priceId = priceOf(symbol);
    if (priceId) token.priceId = priceId;
  }
  const nativePrice = base?.nativeCurrency?.priceId;
  return {
    ...entry,
    nativeCurrency: { symbol: native, decimals: 18, ...(nativePrice && { priceId: nativePrice }) },
    nftCollection,
  };
}

/**
 * The default chain file with the local chain in place of the entry for its id. Every other entry
 * whose RPC node is the local address the chain took (31337's `127.0.0.1:8545`) is left out:
 * that node answers with another chain id.
 */
export function shippedChainFile(
  chain: LocalChain,
  fixture: DexFixture,
  nftCollection: Address,
): Record<string, ChainEntry> {
  const chains = defaultChains();
  const local = localEntry(chains[chain.chainId], chain, fixture, nftCollection);
  const others = Object.entries(chains).filter(
    ([id, entry]) => Number(id) !== chain.chainId && entry.rpcUrl !== chain.rpcUrl,
  );
  return { ...Object.fromEntries(others), [chain.chainId]: local };
}

/**
 * Starts the local chain, deploys what the shipped actions use (the DEX fixture of best-swap and
 * send-token's tokens, mint-nft's collection), funds the other accounts and writes a matching
 * chain file. On a fresh chain every address is the same each time.
 */
export async function startTestChain({
  chainId = SHIPPED_CHAIN_ID,
  port = 0,
}: TestChainOptions = {}): Promise<TestChain> {
  const chain = await startLocalChain({ chainId, port });
  try {
    const answered = await chain.publicClient.getChainId();
    if (answered !== chainId) throw new Error(`the chain answers id ${answered}, not ${chainId}`);
    const fixture = await deployDexFixture(chain);
    for (const account of chain.accounts.slice(1)) await fundUser(chain, fixture, account);
    const deployer = chain.wallet(chain.accounts[0]);
    const nftCollection = await deploy(chain, deployer, nftCollectionArtifact());
    const chainFile = join(mkdtempSync(join(tmpdir(), 'dev-chain-')), 'chains.json');
    writeFileSync(
      chainFile,
      JSON.stringify({ chains: shippedChainFile(chain, fixture, nftCollection) }, null, 2),
    );
    return {
      chain,
      fixture,
      nftCollection,
      users: chain.accounts.slice(1),
      chainFile,
      env: { CHAIN_CONFIG_FILE: chainFile },
      stop: () => chain.stop(),
    };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}
