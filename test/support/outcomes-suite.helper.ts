import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import { startTestChain, type TestChain } from '../../src/testing';
import { createTestApp } from './app.factory';
import { SendTokenWithHookModule } from './outcomes.helper';
import { deleteKeys, REDIS_TEST_URL, runKeyPrefix } from './redis.helper';
import { TEST_WEBHOOK_SECRET, WebhookReceiver } from './webhook.receiver';

/** What an outcomes suite on the local chain and Redis shares across its tests. */
export interface OutcomesSuite {
  testChain: TestChain;
  /** The env its apps boot with: the chain's, Redis under the suite's own prefix, a fast poll. */
  env: Record<string, string>;
  /** The webhook receiver, when the suite asked for webhooks. */
  receiver: WebhookReceiver;
  /** Boots an app (closed after the suite), with the suite's env and `env` over it. */
  start(env?: Record<string, string>): Promise<NestFastifyApplication>;
}

/**
 * Registers, in the calling `describe`, the local chain, a key prefix of the suite's own on
 * REDIS_TEST_URL (its keys deleted after), optionally a webhook receiver, and the apps the tests
 * boot with `start` (send-token with its recording hook, unless `actions` says otherwise): what
 * every suite of test/outcomes on Redis sets up and tears down.
 */
export function outcomesSuite(
  name: string,
  {
    webhooks = false,
    env: extra = {},
    actions = [SendTokenWithHookModule],
  }: { webhooks?: boolean; env?: Record<string, string>; actions?: readonly Type[] } = {},
): OutcomesSuite {
  const prefix = runKeyPrefix(name);
  const apps: NestFastifyApplication[] = [];
  let admin: Redis | undefined;
  const suite = {
    start: async (env: Record<string, string> = {}): Promise<NestFastifyApplication> => {
      const app = await createTestApp({ env: { ...suite.env, ...env }, actions });
      apps.push(app);
      return app;
    },
  } as OutcomesSuite;

  beforeAll(async () => {
    admin = new Redis(REDIS_TEST_URL);
    suite.testChain = await startTestChain();
    if (webhooks) suite.receiver = await WebhookReceiver.start();
    suite.env = {
      ...suite.testChain.env,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: prefix,
      OUTCOME_POLL_MS: '50',
      ...(webhooks && {
        WEBHOOK_URL: suite.receiver.url,
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        WEBHOOK_BACKOFF_MS: '20',
      }),
      ...extra,
    };
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await suite.receiver?.close();
    await suite.testChain?.stop();
    if (admin) {
      await deleteKeys(admin, prefix);
      await admin.quit();
    }
  });

  return suite;
}
