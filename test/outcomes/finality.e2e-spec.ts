import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Address, numberToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestChain, type TestChain } from '../../src/testing';
import type { RpcCall } from '../../src/evm/chains/rpc-batch';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import { createTestApp } from '../support/app.factory';
import {
  mine,
  revertTo,
  sendRaw,
  signAnswer,
  snapshot,
  until,
} from '../support/chain-driver.helper';
import {
  heard,
  heardOutcomes,
  readIntent,
  SendTokenWithHookModule,
  sendTokenIntent,
} from '../support/outcomes.helper';
import { RpcRecorder } from '../support/rpc.recorder';

const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/**
 * Issue 42, item 5: `confirmed` is final. An intent settles only TX_CONFIRMATIONS (here 3) deep
 * and at or below the block the node calls `finalized` (a recorder in front of the local chain
 * holds that block back, as a chain whose finality lags its head would); a reorg below that depth
 * re-opens the intent silently, and it settles once from the new branch.
 */
describe('Final means final: confirmations and the finalized block', () => {
  let testChain: TestChain;
  let recorder: RpcRecorder;
  let app: NestFastifyApplication;
  /** The block the node names `finalized`; undefined: as the local chain answers. */
  let finalizedAt: bigint | undefined;

  beforeAll(async () => {
    testChain = await startTestChain();
    recorder = await RpcRecorder.start(testChain.chain.rpcUrl);
    recorder.answering = (call: RpcCall, answer: unknown): unknown => {
      const { result } = answer as { result?: Record<string, unknown> };
      const finalized = call.method === 'eth_getBlockByNumber' && call.params?.[0] === 'finalized';
      if (!finalized || !result || finalizedAt === undefined) return answer;
      return { ...(answer as object), result: { ...result, number: numberToHex(finalizedAt) } };
    };
    app = await createTestApp({
      env: {
        ...testChain.env,
        RPC_URL_43113: recorder.url,
        TX_CONFIRMATIONS: '3',
        OUTCOME_POLL_MS: '50',
      },
      actions: [SendTokenWithHookModule],
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await recorder?.close();
    await testChain?.stop();
  });

  const statusOf = async (intent: string): Promise<string | undefined> =>
    (await readIntent(app, intent)).body.data?.status;
  const heardOf = (intent: string, status: string): number =>
    heardOutcomes.filter((o) => o.intent.id === intent && o.status === status).length;
  const followed = async (): Promise<number> => {
    const metric = app
      .get(ActionMetrics)
      .registry.getSingleMetric('dynamic_action_follower_blocks_total');
    return ((await metric?.get())?.values ?? []).reduce((sum, v) => sum + v.value, 0);
  };
  const answer = (): ReturnType<typeof sendTokenIntent> =>
    sendTokenIntent(
      app,
      { token: 'USDC', recipient: recipient(), amount: '1' },
      testChain.users[0].address,
    );

  it('deep enough but above the finalized block: still submitted; confirmed once the node finalizes it', async () => {
    const { chain } = testChain;
    finalizedAt = await chain.publicClient.getBlockNumber();
    const answered = await answer();
    const signed = await signAnswer(
      chain,
      testChain.users[0],
      answered.body.serializedTransaction as string,
    );
    const block = await sendRaw(chain, signed.raw);
    await until(async () => (await statusOf(answered.intent)) === 'submitted', 'seen mined');
    // Four blocks past it (3 deep and more), and a pass over each.
    const before = await followed();
    await mine(chain, 4);
    await until(async () => (await followed()) >= before + 4, 'the follower read past the depth');
    // One more block: the pass that read the fourth has settled what it could (passes run in turn).
    await mine(chain, 1);
    await until(async () => (await followed()) >= before + 5, 'a pass after it');
    expect(await statusOf(answered.intent)).toBe('submitted');
    finalizedAt = block;
    const outcome = await heard(answered.intent, 'confirmed');
    expect(outcome.intent.blockNumber).toBe(block.toString());
    finalizedAt = undefined;
  });

  it('a reorg below the settle depth re-opens silently; the intent settles once from the new branch', async () => {
    const { chain } = testChain;
    const answered = await answer();
    const before = await snapshot(chain);
    const signed = await signAnswer(
      chain,
      testChain.users[0],
      answered.body.serializedTransaction as string,
    );
    await sendRaw(chain, signed.raw);
    await until(async () => (await statusOf(answered.intent)) === 'submitted', 'seen mined');
    await revertTo(chain, before);
    await mine(chain, 2);
    await until(async () => (await statusOf(answered.intent)) === 'answered', 'back to answered');
    expect(heardOutcomes.filter((o) => o.intent.id === answered.intent)).toEqual([]);
    await sendRaw(chain, signed.raw);
    await mine(chain, 3);
    await heard(answered.intent, 'confirmed');
    expect([heardOf(answered.intent, 'confirmed'), heardOf(answered.intent, 'reorged')]).toEqual([
      1, 0,
    ]);
  });
});
