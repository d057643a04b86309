import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis, { type Redis as IORedis } from 'ioredis';
import type { ChildProcess } from 'node:child_process';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainFollower } from '../../src/follower/chain-follower';
import { newIntentId } from '../../src/outcomes/intent-id';
import { IntentsService } from '../../src/outcomes/intents.service';
import { startTestChain, type TestChain } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { SendTokenWithHookModule } from '../support/outcomes.helper';
import { freePort, startRedisServer, stopRedisServer } from '../support/redis.helper';
import { RpcRecorder } from '../support/rpc.recorder';
import { REDIS, RedisStatus } from '../../src/telemetry/redis/redis.provider';

const FUJI = 43113;
const address = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** What open intents and a stalled Redis cost: the follower's RPC calls, and the answers' time. */
describe('Outcome costs', () => {
  let testChain: TestChain;

  beforeAll(async () => {
    testChain = await startTestChain({ chainId: FUJI });
  }, 60_000);

  afterAll(async () => {
    await testChain?.stop();
  });

  describe('the follower, with 1 and with 10,000 open intents', () => {
    let recorder: RpcRecorder;
    let app: NestFastifyApplication;

    beforeAll(async () => {
      recorder = await RpcRecorder.start(testChain.chain.rpcUrl);
      app = await createTestApp({
        env: {
          ...testChain.env,
          [`RPC_URL_${FUJI}`]: recorder.url,
          // Passes only when the test asks for one.
          OUTCOME_POLL_MS: '600000',
          INTENT_MEMORY_MAX: '20000',
        },
        actions: [SendTokenWithHookModule],
      });
      // One intent open, and a first pass: the follower has its place before the rounds.
      await open(1);
      await app.get(ChainFollower).pass();
    }, 60_000);

    afterAll(async () => {
      await app?.close();
      await recorder?.close();
    });

    /** Opens `count` intents of users who never send anything. */
    async function open(count: number): Promise<void> {
      const intents = app.get(IntentsService);
      const now = Date.now();
      for (let i = 0; i < count; i++) {
        const recorded = await intents.record({
          id: newIntentId(),
          action: '/api/send-token',
          chainId: FUJI,
          user: address(),
          to: address(),
          data: '0x',
          value: '1',
          nonce: 0,
          status: 'answered',
          createdAt: now,
          updatedAt: now,
        });
        if (!recorded) throw new Error('not recorded');
      }
    }

    /** The calls the follower makes to read 50 new blocks, each with a transaction. */
    async function callsOver50Blocks(): Promise<number> {
      const sender = testChain.users[3];
      const wallet = testChain.chain.wallet(sender);
      for (let i = 0; i < 50; i++) await wallet.sendTransaction({ to: address(), value: 1n });
      recorder.reset();
      await app.get(ChainFollower).pass();
      return recorder.calls.length;
    }

    it('makes the same calls over the same 50 blocks, within 10 %', async () => {
      const one = await callsOver50Blocks();
      await open(9_999);
      const many = await callsOver50Blocks();
      // Every block was read: the head once, then each block once.
      expect(one).toBeGreaterThanOrEqual(51);
      expect(Math.abs(many - one)).toBeLessThanOrEqual(one * 0.1);
    }, 120_000);
  });

  describe('a Redis stopped with SIGSTOP', () => {
    let redis: ChildProcess;
    let app: NestFastifyApplication;

    beforeAll(async () => {
      const port = await freePort();
      redis = await startRedisServer(port);
      app = await createTestApp({
        env: {
          ...testChain.env,
          REDIS_URL: `redis://127.0.0.1:${port}`,
          RATE_LIMIT_ON_STORE_ERROR: 'allow',
        },
        actions: [SendTokenWithHookModule],
      });
    }, 60_000);

    afterAll(async () => {
      redis?.kill('SIGCONT');
      await app?.close();
      if (redis) await stopRedisServer(redis);
    });

    /** A send-token answer: its status, and whether it named an intent. */
    async function answer(): Promise<{ status: number; intent: boolean }> {
      const response = await app.inject({
        method: 'POST',
        url: `/api/send-token?token=AVAX&recipient=${address()}&amount=0.01`,
        headers: { 'x-wallet-address': testChain.users[0].address },
      });
      return { status: response.statusCode, intent: 'x-action-intent' in response.headers };
    }

    it('after the first, answers send nothing to it (no wait), without intents; the routes answer 503', async () => {
      for (let i = 0; i < 5; i++) expect(await answer()).toEqual({ status: 200, intent: true });
      // What the answers ask of Redis (the health probe's PING aside): a stalled Redis makes
      // each such command wait for the command timeout.
      const client = app.get<IORedis>(REDIS);
      const sent = jest.spyOn(client, 'sendCommand');
      const asked = (): number =>
        sent.mock.calls.filter(([command]) => command.name !== 'ping').length;
      redis.kill('SIGSTOP');
      // The first waits for the command timeout; it opens the breaker for the rest.
      expect(await answer()).toEqual({ status: 200, intent: false });
      const before = asked();
      for (let i = 0; i < 5; i++) expect(await answer()).toEqual({ status: 200, intent: false });
      expect(asked() - before).toBe(0);
      sent.mockRestore();
      const id = newIntentId();
      const read = await app.inject({ method: 'GET', url: `/api/transactions/${id}` });
      const report = await app.inject({
        method: 'POST',
        url: `/api/transactions/${id}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ hash: `0x${'ab'.repeat(32)}` }),
      });
      for (const response of [read, report]) {
        expect(response.statusCode).toBe(503);
        expect(response.json()).toMatchObject({ data: { code: 'SERVICE_UNAVAILABLE' } });
      }
    }, 60_000);
  });

  describe('a full Redis (noeviction at its maxmemory)', () => {
    let redis: ChildProcess;
    let admin: Redis;
    let app: NestFastifyApplication;

    beforeAll(async () => {
      const port = await freePort();
      redis = await startRedisServer(port);
      admin = new Redis(port, '127.0.0.1');
      app = await createTestApp({
        env: { ...testChain.env, REDIS_URL: `redis://127.0.0.1:${port}` },
        actions: [SendTokenWithHookModule],
      });
    }, 60_000);

    afterAll(async () => {
      await app?.close();
      await admin?.quit();
      if (redis) await stopRedisServer(redis);
    });

    it('refuses intents it cannot write, and is not reported down for it: it answered', async () => {
      const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'maxmemory', String(used + 200_000));
      const filler = 'x'.repeat(10_000);
      for (let i = 0; ; i++) {
        const full = await admin.set(`filler:${i}`, filler).then(
          () => false,
          (error: Error) => /OOM/.test(error.message),
        );
        if (full) break;
      }
      const response = await app.inject({
        method: 'POST',
        url: `/api/send-token?token=AVAX&recipient=${address()}&amount=0.01`,
        headers: { 'x-wallet-address': testChain.users[0].address },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-action-intent']).toBeUndefined();
      expect(app.get(RedisStatus).state()).toBe('up');
    });
  });
});
