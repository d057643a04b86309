import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Hex } from 'viem';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { headProbeAnswer, readHeadProbe } from '../../src/evm/transaction/head-probe';
import { startTestChain, type TestChain } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { runAction } from '../support/platform';
import { isHeadProbe } from '../support/rpc-node.server';
import { type RpcCall, RpcRecorder } from '../support/rpc.recorder';

/**
 * The head probe (src/evm/transaction/head-probe.ts) stands for a batch's opening head only on a
 * node shown to report the head as `block.number` in an eth_call at `latest`. Here the local
 * chain sits behind a recorder that answers the probe as a node running calls in the NEXT block's
 * context would (head + 1): the check must never take the probe's number for the head, so every
 * batch keeps its opening eth_blockNumber, and a block mined mid-batch is still caught.
 */
const FUJI = 43113;

/** The probe's answer with block.number one past what the node said. */
function nextBlockContext(call: RpcCall, answer: unknown): unknown {
  const { result } = answer as { result?: Hex };
  if (!isHeadProbe(call) || !result) return answer;
  const { block, balance, codeSize } = readHeadProbe(result);
  const shifted = headProbeAnswer(block + 1n, balance, codeSize);
  return { ...(answer as object), result: shifted };
}

describe('a node whose eth_call runs in the next block: the probe never stands for the head', () => {
  let testChain: TestChain;
  let recorder: RpcRecorder;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    testChain = await startTestChain({ chainId: FUJI });
    recorder = await RpcRecorder.start(testChain.chain.rpcUrl);
    recorder.answering = nextBlockContext;
    const env = { ...testChain.env, RPC_URL_43113: recorder.url, OUTCOME_POLL_MS: '600000' };
    app = await createTestApp({ env, actions: [SendTokenModule] });
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await recorder?.close();
    await testChain?.stop();
  });

  const send = (): ReturnType<typeof runAction> =>
    runAction(
      app,
      '/api/send-token',
      { token: 'USDC', recipient: testChain.users[1].address, amount: '1' },
      { 'x-wallet-address': testChain.users[0].address },
    );

  it('every check opens with eth_blockNumber, in one batch, its heads equal', async () => {
    for (let round = 0; round < 3; round++) {
      recorder.reset();
      expect((await send()).status).toBe(200);
      expect(recorder.requests).toHaveLength(1);
      const [calls] = recorder.requests;
      const answers = recorder.answers[0] as { result: string }[];
      expect(calls[0].method).toBe('eth_blockNumber');
      expect(isHeadProbe(calls[1])).toBe(true);
      expect(calls.at(-1)!.method).toBe('eth_blockNumber');
      expect(answers[0].result).toBe(answers.at(-1)!.result);
    }
  });

  it('a block mined mid-batch is caught by the two eth_blockNumbers, and the batch sent pinned', async () => {
    recorder.reset();
    recorder.between = async () => {
      const other = testChain.chain.wallet(testChain.users[1]);
      const hash = await other.sendTransaction({ to: testChain.users[2].address, value: 1n });
      await testChain.chain.publicClient.waitForTransactionReceipt({ hash });
    };
    expect((await send()).status).toBe(200);
    expect(recorder.requests).toHaveLength(2);
    const answers = recorder.answers[0] as { result: string }[];
    const [opening, closing] = [answers[0].result, answers.at(-1)!.result].map(BigInt);
    expect(closing).toBe(opening + 1n);
    const tags = recorder.requests[1]
      .filter((c) => c.method === 'eth_call')
      .map((c) => c.params?.at(-1));
    expect(new Set(tags)).toEqual(new Set([`0x${closing.toString(16)}`]));
  });
});
