import { type HDAccount, type Hex, keccak256 } from 'viem';
import type { LocalChain } from '../../src/testing/evm/local-chain';
import { deserializeTransaction } from '../../src/testing/evm/wallet';

/** Hardhat's own methods, for a test that drives the chain: snapshots, reverts, mining. */
async function hardhat(
  chain: LocalChain,
  method: string,
  params: unknown[] = [],
): Promise<unknown> {
  return chain.publicClient.request({ method, params } as never);
}

/**
 * Saves the local chain's state (Hardhat's evm_snapshot): a test that branches (a reorg, a replaced
 * transaction) returns to it with `revertTo`.
 */
export const snapshot = (chain: LocalChain): Promise<Hex> =>
  hardhat(chain, 'evm_snapshot') as Promise<Hex>;

/**
 * Returns the local chain to a `snapshot`, throwing when Hardhat no longer has it (a snapshot is
 * used up by its revert).
 */
export async function revertTo(chain: LocalChain, id: Hex): Promise<void> {
  if ((await hardhat(chain, 'evm_revert', [id])) !== true) throw new Error(`No snapshot ${id}`);
}

/**
 * Mines `blocks` empty blocks at once (hardhat_mine), so a test reaches a confirmation depth
 * without sending transactions.
 */
export async function mine(chain: LocalChain, blocks: number): Promise<void> {
  await hardhat(chain, 'hardhat_mine', [`0x${blocks.toString(16)}`]);
}

/**
 * Signs an answered transaction as a wallet would (nonce, gas and fees from the chain) without
 * sending it: the raw bytes can be sent, and sent again on another branch after a revert.
 */
export async function signAnswer(
  chain: LocalChain,
  account: HDAccount,
  serialized: string,
): Promise<{ raw: Hex; hash: Hex }> {
  const tx = deserializeTransaction(serialized);
  const client = chain.publicClient;
  const [nonce, fees] = await Promise.all([
    client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
  ]);
  const raw = await account.signTransaction({
    ...tx,
    type: 'eip1559',
    nonce,
    gas: 300_000n,
    ...fees,
  });
  return { raw, hash: keccak256(raw) };
}

/** Sends raw bytes and waits until they are mined. */
export async function sendRaw(chain: LocalChain, raw: Hex): Promise<bigint> {
  const hash = await chain.publicClient.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  return receipt.blockNumber;
}

/** Checks `condition` after each turn of the follower's poll until it holds (10 s at most). */
export async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Still not: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
