import { isCluster, type RedisClient } from './redis.provider';

/**
 * Commands over keys of many slots. One server takes them in one command (MGET) or one pipeline;
 * a Redis Cluster refuses a multi-key command across slots (CROSSSLOT) and a pipeline across
 * nodes, so there each key gets its own command, sent together (the cluster client's automatic
 * pipelining groups them by node: one write per node).
 */

/** The values of the keys, in their order (null where none). */
export async function getMany(
  redis: RedisClient,
  keys: readonly string[],
): Promise<(string | null)[]> {
  if (keys.length === 0) return [];
  if (!isCluster(redis)) return redis.mget(...keys);
  return Promise.all(keys.map((k) => redis.get(k)));
}

/** Whether any of the keys exists. */
export async function anyExists(redis: RedisClient, keys: readonly string[]): Promise<boolean> {
  if (keys.length === 0) return false;
  if (!isCluster(redis)) return (await redis.exists(...keys)) > 0;
  return (await Promise.all(keys.map((k) => redis.exists(k)))).some((n) => n > 0);
}

/** The sizes of sorted sets, in their order. */
export async function sizesOf(redis: RedisClient, keys: readonly string[]): Promise<number[]> {
  if (!isCluster(redis)) {
    const answers = (await redis.pipeline(keys.map((k) => ['zcard', k])).exec()) ?? [];
    return answers.map(([error, size]) => {
      if (error) throw error;
      return Number(size);
    });
  }
  return Promise.all(keys.map((k) => redis.zcard(k)));
}

/** How many members of each sorted set score at most `max`, in their order. */
export async function countsUpTo(
  redis: RedisClient,
  keys: readonly string[],
  max: number,
): Promise<number[]> {
  if (!isCluster(redis)) {
    const answers =
      (await redis.pipeline(keys.map((k) => ['zcount', k, '-inf', max])).exec()) ?? [];
    return answers.map(([error, count]) => {
      if (error) throw error;
      return Number(count);
    });
  }
  return Promise.all(keys.map((k) => redis.zcount(k, '-inf', max)));
}
