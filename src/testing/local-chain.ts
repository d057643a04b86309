/**
 * The local chain a team's e2e spec runs its action on (docs/testing.md, "A local chain in your
 * spec"): start it with the shipped contracts and funded users, point the app at it with its chain
 * file, and act as the user's wallet on what an action answers. Hardhat and solc (src/testing/evm,
 * a devDependency, never built) load on the first start only: a spec importing src/testing for
 * the conformance kit alone stays fast, and the built testing entry never reaches them.
 */
import { join } from 'node:path';
import type { HDAccount } from 'viem';
import type { ExecutionResponse } from '../contract/action.types';
import type { TestChain, TestChainOptions } from './chain-types';
import { signAndSend, type WalletRun } from './wallet';

export type { DexFixture, LocalChain, TestChain, TestChainOptions } from './chain-types';
export { writeChainFile, writeNodeDownChainFile } from './chain-file';
export { deserializeTransaction, signAndSend, type WalletRun } from './wallet';

/** Loads a module of src/testing/evm by a path the compiler does not follow (see above). */
function fromEvm<T>(name: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(__dirname, 'evm', name)) as T;
}

/**
 * Starts a fresh local chain passing for `chainId` (default 43113, Avalanche Fuji, the chain the
 * shipped actions and the scaffold's declare) on a free port, deploys what the shipped actions use
 * (WAVAX, USDC, USDT, two Uniswap V2 venues and their pools, the NFT collection), funds `users`
 * and writes a chain file listing it: `createTestApp({ env: testChain.env })` serves on it.
 */
export function startTestChain(options?: TestChainOptions): Promise<TestChain> {
  const { startTestChain: start } = fromEvm<{
    startTestChain: (options?: TestChainOptions) => Promise<TestChain>;
  }>('test-chain');
  return start(options);
}

/** Gives another account stablecoins from the deployer and wraps some of its native coin. */
export async function fundUser(
  testChain: TestChain,
  user: HDAccount,
  amounts?: { usdc?: bigint; usdt?: bigint; wrapped?: bigint },
): Promise<void> {
  const { fundUser: fund } = fromEvm<{
    fundUser: (
      chain: TestChain['chain'],
      fixture: TestChain['fixture'],
      user: HDAccount,
      amounts?: { usdc?: bigint; usdt?: bigint; wrapped?: bigint },
    ) => Promise<void>;
  }>('dex-fixture');
  await fund(testChain.chain, testChain.fixture, user, amounts);
}

/**
 * Acts as the user's wallet on a transaction-mode answer: fills nonce, gas and fees from the
 * chain, signs with the user's key, sends it and waits for its receipt (`receipt.status`).
 */
export function sendAnswer(
  testChain: TestChain,
  user: HDAccount,
  answer: ExecutionResponse,
): Promise<WalletRun> {
  return signAndSend(testChain.chain, user, answer.serializedTransaction);
}
