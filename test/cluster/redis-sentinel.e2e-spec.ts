import { LocalSentinel } from '../support/local-cluster.helper';
import { ask, describeWithRedisServer, until } from '../support/redis-cluster.helper';
import { runKeyPrefix } from '../support/redis.helper';
import { sharedRedisScenarios } from './failover.scenarios';

/**
 * The service on a Sentinel-managed primary (one primary, one replica, one sentinel, from
 * redis-server processes on free ports): two replicas of the service sign in, count limits,
 * record, settle and deliver through it, and `SENTINEL FAILOVER` in the middle of traffic loses
 * nothing: the client follows the sentinel to the promoted replica by itself.
 */
describeWithRedisServer()(
  'On a Sentinel-managed primary (1 primary, 1 replica, 1 sentinel)',
  () => {
    let sentinel: LocalSentinel;
    const prefix = runKeyPrefix('sentinel');

    beforeAll(async () => {
      sentinel = await LocalSentinel.start();
    }, 60_000);

    afterAll(async () => {
      await sentinel?.stop();
    });

    sharedRedisScenarios(() => ({
      env: {
        REDIS_SENTINELS: `127.0.0.1:${sentinel.sentinelPort}`,
        REDIS_SENTINEL_NAME: LocalSentinel.NAME,
        REDIS_KEY_PREFIX: prefix,
      },
      failover: async () => {
        const before = await sentinel.primaryPort();
        expect(await sentinel.failover()).not.toBe(before);
      },
    }));

    // After both replicas closed (the scenarios' own afterAll): no connection of theirs is left on
    // the sentinel. ioredis's failover detector subscribes to it and QUIT alone leaves that
    // subscription reconnecting for ever (ioredis#1362), which held the process open.
    it('closed replicas leave no subscription on the sentinel', async () => {
      await until('the failover detectors to leave', async () => {
        const clients = await ask(sentinel.sentinelPort, 'CLIENT', 'LIST');
        return !/cmd=(p?subscribe|ping)\b/.test(clients) && !/sub=[1-9]/.test(clients);
      });
    });
  },
);
