import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Address, numberToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainFollower } from '../../src/follower/chain-follower';
import { MAX_ANSWER_BYTES } from '../../src/outbound/http/upstream-bounds';
import { startTestChain, type TestChain } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { LARGE_TXS, mineLargeBlock } from '../support/large-block.helper';
import {
  readIntent,
  sendAnyway,
  SendTokenWithHookModule,
  sendTokenIntent,
} from '../support/outcomes.helper';
import { RpcRecorder } from '../support/rpc.recorder';

const FUJI = 43113;
const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/**
 * A block larger than the RPC answer cap, mined on a local chain (automine off), then an intent
 * paid in the next block: the follower reads the large block in pages within the cap and settles
 * the intent like any other.
 */
describe('The follower on a 6 MB block', () => {
  let testChain: TestChain;
  let recorder: RpcRecorder;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    testChain = await startTestChain();
    recorder = await RpcRecorder.start(testChain.chain.rpcUrl);
    app = await createTestApp({
      env: {
        ...testChain.env,
        [`RPC_URL_${FUJI}`]: recorder.url,
        // Passes only when the test asks for one.
        OUTCOME_POLL_MS: '600000',
      },
      actions: [SendTokenWithHookModule],
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await recorder?.close();
    await testChain?.stop();
  });

  it('reads it in pages within the cap, and an intent paid in the next block settles confirmed within 3 passes', async () => {
    const [user] = testChain.users;
    const answer = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient: recipient(), amount: '0.01' },
      user.address,
    );
    const follower = app.get(ChainFollower);
    await follower.pass();
    const largeNumber = await mineLargeBlock(testChain, () =>
      sendAnyway(testChain.chain, user, answer.body.serializedTransaction as string, {
        waitForReceipt: false,
      }),
    );
    const large = await testChain.chain.publicClient.getBlock({ blockNumber: largeNumber });
    expect(large.transactions).toHaveLength(LARGE_TXS);

    recorder.reset();
    let passes = 0;
    let status = 'answered';
    while (status !== 'confirmed' && passes < 3) {
      await follower.pass();
      passes += 1;
      status = String((await readIntent(app, answer.intent)).body.data?.status);
    }
    expect(status).toBe('confirmed');

    // The large block's whole answer (over the cap) was refused; every answer read was under it.
    const sizes = recorder.answers.map((a) => JSON.stringify(a).length);
    const whole = recorder.requests.findIndex((calls) =>
      calls.some(
        (c) =>
          c.method === 'eth_getBlockByNumber' &&
          c.params?.[0] === numberToHex(large.number) &&
          c.params[1] === true,
      ),
    );
    expect(sizes[whole]).toBeGreaterThan(6_000_000);
    const pages = recorder.requests
      .map((calls, i) => ({ calls, size: sizes[i] }))
      .filter(({ calls }) => calls[0].method === 'eth_getTransactionByBlockHashAndIndex');
    // Pages of at most RPC_MAX_BATCH_CALLS (40); those that fit the cap hold every transaction once.
    expect(Math.max(...pages.map((p) => p.calls.length))).toBeLessThanOrEqual(40);
    const read = pages.filter((p) => p.size <= MAX_ANSWER_BYTES);
    const indexes = read.flatMap((p) => p.calls.map((c) => Number(c.params?.[1])));
    expect(indexes.sort((a, b) => a - b)).toEqual([...Array(LARGE_TXS).keys()]);
  }, 120_000);
});
