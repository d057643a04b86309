import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { dueKey, shardOf } from '../../src/outcomes/redis-intent.keys';
import Redis from 'ioredis';
import type { Address, HDAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { OutcomeWatcher } from '../../src/outcomes/outcome-watcher';
import { createTestApp } from '../support/app.factory';
import { signAndSend, startTestChain, type TestChain } from '../../src/testing';
import type { LocalChain } from '../../src/testing/evm/local-chain';
import {
  heard,
  heardCount,
  readIntent,
  reportHash,
  sendAnyway,
  SendTokenWithHookModule,
  sendTokenIntent,
} from '../support/outcomes.helper';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';

const FUJI = 43113;
const recipient = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** Two replicas on one Redis: any of them answers about any intent; a hook runs once in all. */
describeWithRedis()('Transaction outcomes across replicas (Redis)', () => {
  const prefix = runKeyPrefix('outcomes');
  let admin: Redis;
  let testChain: TestChain;
  let chain: LocalChain;
  let user: HDAccount;
  let one: NestFastifyApplication;
  let two: NestFastifyApplication;

  beforeAll(async () => {
    admin = new Redis(REDIS_TEST_URL);
    testChain = await startTestChain({ chainId: FUJI });
    chain = testChain.chain;
    user = testChain.users[0];
    const env = {
      ...testChain.env,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: prefix,
      OUTCOME_POLL_MS: '50',
    };
    const actions = [SendTokenWithHookModule];
    [one, two] = await Promise.all([
      createTestApp({ env, actions }),
      createTestApp({ env, actions }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([one, two].map((a) => a?.close()));
    await testChain?.stop();
    if (admin) {
      await deleteKeys(admin, prefix);
      await admin.quit();
    }
  });

  it('answered by one, reported to both at once, read on the other: confirmed, the hook ran once in all', async () => {
    const answer = await sendTokenIntent(
      one,
      { token: 'AVAX', recipient: recipient(), amount: '0.5' },
      user.address,
    );
    expect((await readIntent(two, answer.intent)).body.data?.status).toBe('answered');
    const { receipt } = await signAndSend(chain, user, answer.body.serializedTransaction as string);
    const reports = await Promise.all(
      [one, two, one, two].map((app) => reportHash(app, answer.intent, receipt.transactionHash)),
    );
    expect(reports.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await heard(answer.intent, 'confirmed');
    expect((await readIntent(two, answer.intent)).body.data).toMatchObject({
      status: 'confirmed',
      hash: receipt.transactionHash,
      blockNumber: receipt.blockNumber.toString(),
    });
    // Both watchers have had passes since; the intent left the schedule with its transition.
    await Promise.all([one, two].map((app) => app.get(OutcomeWatcher).tick()));
    expect(
      await admin.zscore(`${prefix}${dueKey(shardOf(answer.intent))}`, answer.intent),
    ).toBeNull();
    expect(heardCount(answer.intent)).toBe(1);
  });

  it('a transaction mined after its report: the watchers settle it from the shared schedule', async () => {
    const answer = await sendTokenIntent(
      two,
      { token: 'AVAX', recipient: recipient(), amount: '0.25' },
      user.address,
    );
    const node = chain.publicClient as unknown as {
      request(args: { method: string; params?: unknown[] }): Promise<unknown>;
    };
    await node.request({ method: 'evm_setAutomine', params: [false] });
    try {
      const hash = await sendAnyway(chain, user, answer.body.serializedTransaction as string, {
        waitForReceipt: false,
      });
      expect((await reportHash(one, answer.intent, hash)).body.data?.status).toBe('submitted');
      await node.request({ method: 'evm_mine' });
      const outcome = await heard(answer.intent, 'confirmed');
      expect(outcome.intent.hash).toBe(hash);
    } finally {
      await node.request({ method: 'evm_setAutomine', params: [true] });
    }
    await Promise.all([one, two].map((app) => app.get(OutcomeWatcher).tick()));
    expect(heardCount(answer.intent)).toBe(1);
  });

  it('keeps every key under the prefix, each with an expiry', async () => {
    const keys: string[] = [];
    for await (const batch of admin.scanStream({ match: `${prefix}intent:*`, count: 500 })) {
      keys.push(...(batch as string[]));
    }
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(await admin.pttl(key)).toBeGreaterThan(0);
  });
});
