import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import type { Address, HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { verifyWebhook } from '../../src/kit';
import { startTestChain, signAndSend, type TestChain } from '../../src/testing';
import type { LocalChain } from '../../src/testing/evm/local-chain';
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
  reportHash,
  BestSwapWithHookModule,
  SendTokenWithHookModule,
  sendTokenIntent,
} from '../support/outcomes.helper';
import {
  platformAcceptsTransaction,
  proxyExecution,
  sendRaw as sendRequest,
} from '../support/platform-sdk.helper';
import { ActionRegistry } from '../../src/kit/action.registry';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';
import { TEST_WEBHOOK_SECRET as SECRET, WebhookReceiver } from '../support/webhook.receiver';

const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const heardOf = (intent: string, status: string): number =>
  heardOutcomes.filter((o) => o.intent.id === intent && o.status === status).length;

/**
 * Outcomes the service learns from the chain alone, as for every user of the platform's SDK
 * (which hands the mini-app only the parsed body: no header, no report): two replicas on one
 * Redis, one chain follower at a time, webhooks signed, restarts and reorgs.
 */
describeWithRedis()('Outcomes seen on the chain, never reported (two replicas, Redis)', () => {
  const prefix = runKeyPrefix('observed');
  let admin: Redis;
  let testChain: TestChain;
  let chain: LocalChain;
  let user: HDAccount;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  let apps: NestFastifyApplication[];

  beforeAll(async () => {
    admin = new Redis(REDIS_TEST_URL);
    testChain = await startTestChain();
    chain = testChain.chain;
    user = testChain.users[0];
    receiver = await WebhookReceiver.start();
    env = {
      ...testChain.env,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: prefix,
      OUTCOME_POLL_MS: '50',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_BACKOFF_MS: '20',
    };
    const actions = [SendTokenWithHookModule, BestSwapWithHookModule];
    apps = await Promise.all([createTestApp({ env, actions }), createTestApp({ env, actions })]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all((apps ?? []).map((a) => a.close()));
    await receiver?.close();
    await testChain?.stop();
    if (admin) {
      await deleteKeys(admin, prefix);
      await admin.quit();
    }
  });

  const automine = (on: boolean): Promise<unknown> =>
    chain.publicClient.request({ method: 'evm_setAutomine', params: [on] } as never);

  /** Blocks each app's follower read (dynamic_action_follower_blocks_total). */
  async function followedBlocks(app: NestFastifyApplication): Promise<number> {
    const metric = app
      .get(ActionMetrics)
      .registry.getSingleMetric('dynamic_action_follower_blocks_total');
    const values = metric ? (await metric.get()).values : [];
    return values.reduce((sum, v) => sum + v.value, 0);
  }

  it('a send signed and never reported: confirmed with its block, the hook once, one signed webhook', async () => {
    const answer = await sendTokenIntent(
      apps[0],
      { token: 'AVAX', recipient: recipient(), amount: '0.5' },
      user.address,
    );
    const { receipt } = await signAndSend(chain, user, answer.body.serializedTransaction as string);
    const outcome = await heard(answer.intent, 'confirmed');
    expect(outcome.intent).toMatchObject({
      hash: receipt.transactionHash,
      blockNumber: receipt.blockNumber.toString(),
    });
    expect((await readIntent(apps[1], answer.intent)).body.data).toMatchObject({
      status: 'confirmed',
      blockNumber: receipt.blockNumber.toString(),
    });
    await receiver.until(() => receiver.received.some((r) => r.body.includes(answer.intent)));
    const deliveries = receiver.received.filter((r) => r.body.includes(answer.intent));
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries;
    expect(
      verifyWebhook({ secret: SECRET, headers: delivery.headers, rawBody: delivery.body }).ok,
    ).toBe(true);
    await mine(chain, 3);
    await until(
      async () => (await followedBlocks(apps[0])) + (await followedBlocks(apps[1])) > 3,
      'followed',
    );
    expect(heardOf(answer.intent, 'confirmed')).toBe(1);
  });

  it("through the platform's request, whose SDK hands the mini-app only the body: confirmed all the same", async () => {
    await apps[0].listen(0, '127.0.0.1');
    const { port } = apps[0].getHttpServer().address() as { port: number };
    const action = apps[0]
      .get(ActionRegistry)
      .actions()
      .find((a) => a.path === '/api/send-token')!;
    const request = proxyExecution(
      action,
      { token: 'AVAX', recipient: recipient(), amount: '0.2' },
      { userAddress: user.address, sourceChain: 43113 },
    );
    // All the mini-app gets: the parsed body. No header, so no intent id, and no report.
    const body = JSON.parse((await sendRequest(port, request)).body) as Record<string, unknown>;
    expect(platformAcceptsTransaction(body)).toBe(true);
    const { receipt } = await signAndSend(chain, user, body.serializedTransaction as string);
    await until(
      () =>
        Promise.resolve(
          heardOutcomes.some(
            (o) => o.status === 'confirmed' && o.intent.hash === receipt.transactionHash,
          ),
        ),
      'the hook heard the confirmed transfer',
    );
  });

  it('a best-swap approval and the swap after it, neither reported: both confirmed', async () => {
    const swapper = testChain.users[2];
    const path = '/api/best-swap?tokenIn=WAVAX&tokenOut=USDC&amountIn=1';
    const run = async (): Promise<{ intent: string; body: Record<string, unknown> }> => {
      const response = await apps[1].inject({
        method: 'POST',
        url: path,
        headers: { 'x-wallet-address': swapper.address },
      });
      expect(response.statusCode).toBe(200);
      return {
        intent: response.headers['x-action-intent'] as string,
        body: response.json<Record<string, unknown>>(),
      };
    };
    const approval = await run();
    expect((approval.body.params as { functionName: string }).functionName).toBe('approve');
    await signAndSend(chain, swapper, approval.body.serializedTransaction as string);
    await heard(approval.intent, 'confirmed');
    const swap = await run();
    expect((swap.body.params as { functionName: string }).functionName).not.toBe('approve');
    const { receipt } = await signAndSend(
      chain,
      swapper,
      swap.body.serializedTransaction as string,
    );
    const outcome = await heard(swap.intent, 'confirmed');
    expect(outcome.intent.hash).toBe(receipt.transactionHash);
  });

  it('one replica follows the chain at a time (the lease in Redis)', async () => {
    await mine(chain, 2);
    const counts = await Promise.all(apps.map(followedBlocks));
    expect(counts.filter((n) => n > 0)).toHaveLength(1);
  });

  it('a foreign hash is a 422 and the intent stays open; a cancel of its reported transaction settles it replaced', async () => {
    const answer = await sendTokenIntent(
      apps[0],
      { token: 'AVAX', recipient: recipient(), amount: '0.25' },
      user.address,
    );
    // Another user's transaction: its sender is not the intent's.
    const stranger = testChain.users[1];
    const foreign = await signAndSend(
      chain,
      stranger,
      (
        await sendTokenIntent(
          apps[1],
          { token: 'AVAX', recipient: recipient(), amount: '0.1' },
          stranger.address,
        )
      ).body.serializedTransaction as string,
    );
    const refused = await reportHash(apps[1], answer.intent, foreign.receipt.transactionHash);
    expect(refused).toMatchObject({ status: 422, body: { data: { code: 'HASH_MISMATCH' } } });
    expect((await readIntent(apps[0], answer.intent)).body.data?.status).toBe('answered');
    // The wallet signs the answer and reports it while it is pending; then the user cancels it:
    // nothing to itself at the same nonce, with higher fees. Only that is evidence of a cancel.
    await automine(false);
    try {
      const signed = await signAnswer(chain, user, answer.body.serializedTransaction as string);
      await chain.publicClient.sendRawTransaction({ serializedTransaction: signed.raw });
      const pending = await reportHash(apps[0], answer.intent, signed.hash);
      expect(pending.body.data).toMatchObject({ status: 'submitted', hash: signed.hash });
      const nonce = (await chain.publicClient.getTransaction({ hash: signed.hash })).nonce;
      const fees = await chain.publicClient.estimateFeesPerGas();
      const cancel = await chain.wallet(user).sendTransaction({
        to: user.address,
        value: 0n,
        nonce,
        maxFeePerGas: fees.maxFeePerGas * 3n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas * 3n,
      });
      await mine(chain, 1);
      const outcome = await heard(answer.intent, 'replaced');
      expect(outcome.intent.hash).toBe(cancel);
      // Its webhook names the transaction that took its place, and that transaction's block.
      const id = `${answer.intent}.replaced`;
      await receiver.until(() => receiver.of(id).length > 0);
      expect(JSON.parse(receiver.of(id)[0].body)).toMatchObject({
        type: 'transaction.replaced',
        hash: cancel,
        blockNumber: outcome.intent.blockNumber,
      });
    } finally {
      await automine(true);
    }
  });

  it('a reorg past its confirmations: the confirmed intent keeps its status and is announced reorged, once', async () => {
    const answer = await sendTokenIntent(
      apps[0],
      { token: 'AVAX', recipient: recipient(), amount: '0.75' },
      user.address,
    );
    const before = await snapshot(chain);
    const signed = await signAnswer(chain, user, answer.body.serializedTransaction as string);
    await sendRaw(chain, signed.raw);
    await heard(answer.intent, 'confirmed');
    await revertTo(chain, before);
    // The other branch grows past the settled block: the follower sees the fork and rewinds.
    await mine(chain, 2);
    const reorged = await heard(answer.intent, 'reorged');
    expect(reorged.intent).toMatchObject({ status: 'confirmed', reorgedAt: expect.any(Number) });
    const id = `${answer.intent}.reorged`;
    await receiver.until(() => receiver.of(id).length > 0);
    expect(JSON.parse(receiver.of(id)[0].body)).toMatchObject({ type: 'transaction.reorged' });
    // Mined again on the new branch: nothing more is announced, and the status never contradicts.
    await sendRaw(chain, signed.raw);
    await mine(chain, 2);
    await until(
      async () => (await followedBlocks(apps[0])) + (await followedBlocks(apps[1])) > 0,
      'followed',
    );
    expect((await readIntent(apps[1], answer.intent)).body.data?.status).toBe('confirmed');
    expect([heardOf(answer.intent, 'confirmed'), heardOf(answer.intent, 'reorged')]).toEqual([
      1, 1,
    ]);
  });

  it('stopped, a matching transaction mined meanwhile, started again: the intent is confirmed', async () => {
    const answer = await sendTokenIntent(
      apps[0],
      { token: 'AVAX', recipient: recipient(), amount: '0.3' },
      user.address,
    );
    await Promise.all(apps.map((a) => a.close()));
    const { receipt } = await signAndSend(chain, user, answer.body.serializedTransaction as string);
    await mine(chain, 2);
    apps = [await createTestApp({ env, actions: [SendTokenWithHookModule] })];
    const outcome = await heard(answer.intent, 'confirmed');
    expect(outcome.intent.blockNumber).toBe(receipt.blockNumber.toString());
  });
});
