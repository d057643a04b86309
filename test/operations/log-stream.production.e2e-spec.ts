import { type ChildProcess, spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import {
  buildProduction,
  type ProductionBuild,
  ProductionServer,
} from '../support/production.server';
import { freePort, startRedisServer, stopRedisServer } from '../support/redis.helper';
import { TEST_WEBHOOK_SECRET } from '../support/webhook.receiver';

const describeWithRedisServer = process.env.CI || hasRedisServer() ? describe : describe.skip;

function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/**
 * "One schema": every line is a JSON object with pino's keys, `level` (its label), `time` (ISO
 * 8601), `pid` (the process's, the same on every line), `hostname` and `msg` (text); and says who wrote it: `context`
 * (the component: Nest's boot, Redis, Shutdown...) or `reqId` (a request's access line).
 */
function parseStream(text: string): Record<string, unknown>[] {
  const lines = text.split('\n').filter((line) => line !== '');
  let pid: unknown;
  return lines.map((line) => {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`not a JSON line: ${line}`);
    }
    const ok =
      LEVELS.has(entry.level as string) &&
      typeof entry.time === 'string' &&
      !Number.isNaN(Date.parse(entry.time)) &&
      typeof entry.pid === 'number' &&
      (pid ??= entry.pid) === entry.pid &&
      typeof entry.hostname === 'string' &&
      typeof entry.msg === 'string' &&
      (typeof entry.context === 'string' || typeof entry.reqId === 'string');
    if (!ok) throw new Error(`not in the log's schema: ${line}`);
    return entry;
  });
}

describeWithRedisServer(
  'One log stream: a production boot, requests, a Redis outage, SIGTERM',
  () => {
    let build: ProductionBuild;
    let redis: ChildProcess | undefined;
    let server: ProductionServer | undefined;

    beforeAll(async () => {
      build = await buildProduction();
    }, 180_000);
    afterAll(async () => {
      server?.stop();
      if (redis) await stopRedisServer(redis);
      await build?.remove();
    });

    it('writes every stdout line as JSON in one schema, background lines without request ids', async () => {
      const redisPort = await freePort();
      redis = await startRedisServer(redisPort);
      // An evicting policy: the service and BullMQ (webhooks) each warn of it.
      const admin = new Redis(redisPort, '127.0.0.1');
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      admin.disconnect();
      const [port, metricsPort] = [await freePort(), await freePort()];
      server = await ProductionServer.start(build.main, port, {
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        WEBHOOK_URL: 'https://hooks.example.com/in',
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        // No METRICS_HOST: metrics bind where HOST (127.0.0.1, ProductionServer's) binds.
        METRICS_PORT: String(metricsPort),
        SHUTDOWN_TIMEOUT_MS: '5000',
      });
      await server.waitFor(/IMPORTANT! Eviction policy/);
      for (let i = 0; i < 20; i++) {
        await fetch(`http://127.0.0.1:${port}/api/calculator`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ params: { operation: 'add', a: 1, b: i } }),
        });
      }
      await stopRedisServer(redis);
      redis = undefined;
      await server.waitFor(/"context":"Redis","msg":"Unavailable/);
      server.signal('SIGTERM');
      await server.exited;

      // ProductionServer keeps stdout and stderr together: nothing was written to stderr.
      const lines = parseStream(server.log);
      expect(lines.filter((line) => line.reqId)).toHaveLength(20);
      const contexts = new Set(lines.map((line) => line.context));
      for (const context of ['NestFactory', 'InstanceLoader', 'Bootstrap', 'Redis', 'Shutdown'])
        expect(contexts).toContain(context);
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: `Metrics on http://127.0.0.1:${metricsPort}/metrics` }),
      );
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          context: 'Redis',
          msg: expect.stringMatching(/maxmemory-policy is allkeys-lru/),
        }),
      );
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          context: 'BullMQ',
          msg: 'IMPORTANT! Eviction policy is allkeys-lru. It should be "noeviction"',
        }),
      );
      // What no request did carries no request's id: only access lines have one.
      for (const line of lines.filter((entry) => entry.context !== undefined)) {
        expect(line).not.toHaveProperty('reqId');
        expect(line).not.toHaveProperty('trace_id');
      }
    }, 90_000);
  },
);
