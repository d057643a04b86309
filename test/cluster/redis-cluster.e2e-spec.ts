import { Cluster } from 'ioredis';
import { RedisIntentStore } from '../../src/outcomes/redis-intent.store';
import { EvictionPolicyCheck } from '../../src/telemetry/redis/eviction-policy.check';
import { describeIntentStore } from '../../src/testing/intent-store.contract';
import { LocalCluster } from '../support/local-cluster.helper';
import { describeWithRedisServer } from '../support/redis-cluster.helper';
import { runKeyPrefix } from '../support/redis.helper';
import { sharedRedisScenarios } from './failover.scenarios';

/**
 * The service on a Redis Cluster of 3 primaries and 3 replicas (redis-server processes on free
 * ports, `redis-cli --cluster create`): every script of the intent store holds there, two
 * replicas of the service answer, record and settle intents, sign in, count limits and deliver
 * webhooks on it, and one primary's `CLUSTER FAILOVER` in the middle of traffic loses nothing.
 */
describeWithRedisServer()('On a Redis Cluster (3 primaries, 3 replicas)', () => {
  let cluster: LocalCluster;
  const clients: Cluster[] = [];
  const prefix = runKeyPrefix('cluster');

  beforeAll(async () => {
    cluster = await LocalCluster.start();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    await cluster?.stop();
  });

  /** A client as the service makes one, with a key prefix of its own. */
  const client = (keyPrefix: string): Cluster => {
    const made = new Cluster(
      cluster.nodes.map((n) => ({ host: '127.0.0.1', port: n.port })),
      { keyPrefix, enableAutoPipelining: true },
    );
    clients.push(made);
    return made;
  };

  describeIntentStore('RedisIntentStore on a cluster', () =>
    Promise.resolve(new RedisIntentStore(client(runKeyPrefix('store')), 60_000)),
  );

  sharedRedisScenarios(() => ({
    env: { REDIS_URL: `redis+cluster://${cluster.seeds}`, REDIS_KEY_PREFIX: prefix },
    failover: async (queueKey) => {
      await cluster.failover(await cluster.primaryOf(`${prefix}${queueKey}`));
    },
  }));

  it('spreads the keys over every primary: `redis-cli --cluster check` counts keys on each', () => {
    const report = cluster.check();
    const counts = [...report.matchAll(/-> (\d+) keys \| (\d+) slots/g)].map((m) => Number(m[1]));
    expect(counts).toHaveLength(3);
    expect(counts.filter((n) => n > 0).length).toBeGreaterThan(1);
    expect(report).toMatch(/\[OK\] All 16384 slots covered/);
  });

  it("reads every primary's maxmemory-policy: one that evicts is named, however many do not", async () => {
    const reader = client(runKeyPrefix('eviction'));
    await reader.ping();
    const [, evicting] = reader.nodes('master');
    await evicting.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      expect(await new EvictionPolicyCheck().check(reader)).toEqual({
        policy: 'allkeys-lru',
        where: 'on 1 of 3 primaries',
      });
    } finally {
      await evicting.config('SET', 'maxmemory-policy', 'noeviction');
    }
    expect(await new EvictionPolicyCheck().check(reader)).toEqual({ policy: 'noeviction' });
  });
});
