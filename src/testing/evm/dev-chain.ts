/**
 * A local chain for development: the DEX fixture on 127.0.0.1:8545 as chain 31337, at exactly the
 * addresses the default chain file lists for it. Run with
 * `npx ts-node --transpile-only src/testing/evm/dev-chain.ts [chainId] [port]`; Ctrl-C stops it.
 */
import { deployDexFixture, fundUser } from './dex-fixture';
import { startLocalChain } from './local-chain';

async function main(): Promise<void> {
  const chainId = Number(process.argv[2] ?? 31337);
  const port = Number(process.argv[3] ?? 8545);
  const chain = await startLocalChain({ chainId, port });
  const fixture = await deployDexFixture(chain);
  for (const account of chain.accounts.slice(1)) await fundUser(chain, fixture, account);
  console.log(`Chain ${chainId} at ${chain.rpcUrl}; funded accounts (DEV_MNEMONIC):`);
  for (const account of chain.accounts) console.log(`  ${account.address}`);
  process.once('SIGINT', () => void chain.stop().then(() => process.exit(0)));
}

void main();
