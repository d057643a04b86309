import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { TestChain } from '../../src/testing';
import { mine } from './chain-driver.helper';

/** 30 transactions of 100 kB of calldata: 6 MB of JSON in one block, over the 4 MiB answer cap. */
export const LARGE_TXS = 30;
/** The calldata of each of them, in bytes (zeros). */
export const CALLDATA_BYTES = 100_000;

const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Mines one block of `LARGE_TXS` transactions of `CALLDATA_BYTES` zero bytes each from the second
 * test user (automine off meanwhile, so they share the block), then `after` (e.g. a payment sent
 * without waiting) in the next block. Resolves with the large block's number.
 */
export async function mineLargeBlock(
  testChain: TestChain,
  after: () => Promise<unknown> = () => Promise.resolve(),
): Promise<bigint> {
  const { chain, users } = testChain;
  const node = (method: string, params: unknown[] = []): Promise<unknown> =>
    chain.publicClient.request({ method, params } as never);
  await node('evm_setAutomine', [false]);
  try {
    const wallet = chain.wallet(users[1]);
    const input: `0x${string}` = `0x${'00'.repeat(CALLDATA_BYTES)}`;
    const nonce = await chain.publicClient.getTransactionCount({ address: users[1].address });
    for (let i = 0; i < LARGE_TXS; i++) {
      await wallet.sendTransaction({
        to: recipient(),
        data: input,
        gas: 1_500_000n,
        nonce: nonce + i,
      });
    }
    await mine(chain, 1);
    const large = await chain.publicClient.getBlockNumber();
    await after();
    await mine(chain, 1);
    return large;
  } finally {
    await node('evm_setAutomine', [true]);
  }
}
