import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import { spawn, type ChildProcess } from 'node:child_process';
import { WEBHOOK_QUEUE, WebhookProcessor } from '../../src/outcomes/webhooks/bullmq-delivery.queue';
import type { EvictionReading } from '../../src/telemetry/redis/eviction-policy.check';
import { RedisStatus } from '../../src/telemetry/redis/redis.provider';
import { createTestApp } from '../support/app.factory';
import { type LogLine, testLogs } from '../support/log-capture.helper';
import { describeWithRedis, freePort, stopRedisServer } from '../support/redis.helper';
import { TEST_WEBHOOK_SECRET } from '../support/webhook.receiver';

/**
 * A private redis-server with its own settings (the machine's binary, no persistence), so no test
 * changes the configuration of the Redis the suites share.
 */
async function privateRedis(...settings: string[]): Promise<{ url: string; server: ChildProcess }> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const server = spawn('redis-server', [...args, ...settings], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    server.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve();
    });
  });
  server.removeAllListeners('exit');
  server.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, server };
}

/** The JSON lines the service wrote at warn, as a production process writes them to stdout. */
const warnings = (context: string): LogLine[] =>
  testLogs.lines().filter((line) => line.level === 'warn' && line.context === context);

const WEBHOOKS = {
  // Nothing is delivered in this suite: the queue only has to be the BullMQ one.
  WEBHOOK_URL: 'http://127.0.0.1:9/hooks',
  WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
};

describeWithRedis()('Redis eviction policy at boot', () => {
  let server: ChildProcess | undefined;
  let app: NestFastifyApplication | undefined;

  /** Boots the app on a private Redis run with `settings`; resolves once the check has read it. */
  async function boot(
    settings: string[],
    env: Record<string, string> = {},
  ): Promise<EvictionReading> {
    const redis = await privateRedis(...settings);
    server = redis.server;
    testLogs.clear();
    app = await createTestApp({ env: { REDIS_URL: redis.url, ...env } });
    // Set on the connection's `ready`, which the boot waits for when Redis answers.
    const reading = app.get(RedisStatus).eviction.latest;
    expect(reading).toBeDefined();
    return reading!;
  }

  afterEach(async () => {
    await app?.close();
    app = undefined;
    if (server) await stopRedisServer(server);
    server = undefined;
    jest.restoreAllMocks();
  });

  // First: ioredis's disconnect of a never-connected socket leaves a 2 s timer behind.
  it('Redis down: the boot does not wait on the check, nor fail', async () => {
    const port = await freePort();
    testLogs.clear();
    // The check runs on the connection's `ready`, which never comes: the boot ends without it
    // (a boot that waited on it would never end and fail the test on Jest's timeout).
    app = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    expect(app.get(RedisStatus).eviction.latest).toBeUndefined();
    expect(warnings('Redis')).toEqual([]);
  });

  it('allkeys-lru: warns in the JSON log that intents and webhook jobs can be evicted', async () => {
    expect(await boot(['--maxmemory-policy', 'allkeys-lru'])).toEqual({ policy: 'allkeys-lru' });
    const [line, ...more] = warnings('Redis');
    expect(more).toEqual([]);
    expect(line.msg).toMatch(/^Redis's maxmemory-policy is allkeys-lru: .*evicts any key/);
    expect(line.msg).toContain('pending webhook jobs');
    expect(line.msg).toContain('--maxmemory-policy noeviction');
  });

  it('volatile-lru: warns that intents, which carry TTLs, can be evicted', async () => {
    expect(await boot(['--maxmemory-policy', 'volatile-lru'])).toEqual({ policy: 'volatile-lru' });
    expect(warnings('Redis').map((line) => line.msg)).toEqual([
      expect.stringMatching(/maxmemory-policy is volatile-lru: .*carry a TTL, transaction intents/),
    ]);
  });

  it('noeviction: no warning', async () => {
    expect(await boot(['--maxmemory-policy', 'noeviction', '--maxmemory', '64mb'])).toEqual({
      policy: 'noeviction',
    });
    expect(warnings('Redis')).toEqual([]);
  });

  it('CONFIG disabled (as on managed Redis): the policy is read from INFO instead', async () => {
    const reading = await boot([
      '--maxmemory-policy',
      'allkeys-lru',
      '--rename-command',
      'CONFIG',
      '',
    ]);
    expect(reading).toEqual({ policy: 'allkeys-lru' });
    expect(warnings('Redis')).toHaveLength(1);
  });

  it('neither CONFIG nor INFO allowed: warns that the policy could not be read, and why it matters', async () => {
    // ioredis says it skips its ready check (INFO refused) with console.warn: routed to the log.
    const warn = jest.spyOn(console, 'warn');
    const acl = ['--user', 'default', 'on', 'nopass', '~*', '&*', '+@all', '-config', '-info'];
    const reading = await boot(acl);
    expect(reading).toEqual({
      unreadable: expect.stringMatching(/CONFIG GET: NOPERM.*INFO: NOPERM/),
    });
    const messages = warnings('Redis').map((line) => String(line.msg));
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Skipping the ready check because INFO command fails/),
        expect.stringMatching(/^Could not read Redis's maxmemory-policy \(CONFIG GET: NOPERM/),
      ]),
    );
    expect(messages).toHaveLength(2);
    expect(messages.find((msg) => msg.startsWith('Could not read'))).toContain(
      'pending webhook jobs',
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it("BullMQ's own eviction warning goes to the JSON log, not to the console", async () => {
    const warn = jest.spyOn(console, 'warn');
    const error = jest.spyOn(console, 'error');
    const stderr = jest.spyOn(process.stderr, 'write');
    await boot(['--maxmemory-policy', 'allkeys-lru'], WEBHOOKS);
    // BullMQ reads the policy as each connection gets ready: the queue's, then the worker's.
    await app!.get<Queue>(getQueueToken(WEBHOOK_QUEUE)).waitUntilReady();
    await app!.get(WebhookProcessor).worker.waitUntilReady();

    expect(warnings('BullMQ').map((line) => line.msg)).toEqual([
      'IMPORTANT! Eviction policy is allkeys-lru. It should be "noeviction"',
    ]);
    await app!.close();
    app = undefined;
    const printed = [...warn.mock.calls, ...error.mock.calls, ...stderr.mock.calls].map(String);
    expect(printed.filter((text) => /eviction/i.test(text))).toEqual([]);
    // Closed with the app: console is BullMQ's no more.
    expect(console.warn).toBe(warn);
    expect(console.error).toBe(error);
  });
});
