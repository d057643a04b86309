/**
 * What a 6 MB block costs the follower (`npm run bench`, after the follower's calls a minute; or
 * alone with `npx ts-node --transpile-only test/bench/follower-large-block.ts`):
 * a block of 30 transactions of 100 kB of calldata is mined, an intent is paid in the next one, and
 * the follower's passes run through a JSON-RPC recorder until the intent is confirmed. Printed: the
 * passes, the HTTP requests and JSON-RPC calls, the largest answer it read whole, and the answers
 * over the 4 MiB cap it stopped reading at the cap (their full size as the node sent them). What
 * the follower holds of a block at once is bounded by the cap; the process's heap is not measured
 * here, as the local node and the recorder (which keeps every answer) share it.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainFollower } from '../../src/follower/chain-follower';
import { MAX_ANSWER_BYTES } from '../../src/outbound/http/upstream-bounds';
import { startTestChain } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { mineLargeBlock } from '../support/large-block.helper';
import {
  readIntent,
  sendAnyway,
  SendTokenWithHookModule,
  sendTokenIntent,
} from '../support/outcomes.helper';
import { RpcRecorder } from '../support/rpc.recorder';
import { printAlone } from './bench.report';

const MB = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;

export async function largeBlockCost(): Promise<string> {
  const testChain = await startTestChain();
  const recorder = await RpcRecorder.start(testChain.chain.rpcUrl);
  let app: NestFastifyApplication | undefined;
  try {
    app = await createTestApp({
      env: { ...testChain.env, RPC_URL_43113: recorder.url, OUTCOME_POLL_MS: '600000' },
      actions: [SendTokenWithHookModule],
    });
    const user = testChain.users[0];
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const answer = await sendTokenIntent(
      app,
      { token: 'AVAX', recipient, amount: '0.01' },
      user.address,
    );
    const follower = app.get(ChainFollower);
    await follower.pass();
    await mineLargeBlock(testChain, () =>
      sendAnyway(testChain.chain, user, answer.body.serializedTransaction as string, {
        waitForReceipt: false,
      }),
    );
    recorder.reset();
    let passes = 0;
    let status = 'answered';
    while (status !== 'confirmed' && passes < 5) {
      await follower.pass();
      passes += 1;
      status = String((await readIntent(app, answer.intent)).body.data?.status);
    }
    const sizes = recorder.answers.map((a) => JSON.stringify(a).length);
    const read = sizes.filter((size) => size <= MAX_ANSWER_BYTES);
    const refused = sizes.filter((size) => size > MAX_ANSWER_BYTES);
    const calls = recorder.requests.reduce((sum, batch) => sum + batch.length, 0);
    return (
      `follower on a 6 MB block: intent ${status} after ${passes} pass(es); ` +
      `${recorder.requests.length} requests, ${calls} calls; largest answer read ` +
      `${MB(Math.max(...read))}, ${refused.length} cut at the cap (sent whole: ${refused.map(MB).join(', ')})`
    );
  } finally {
    await app?.close();
    await recorder.close();
    await testChain.stop();
  }
}

if (require.main === module) printAlone(largeBlockCost);
