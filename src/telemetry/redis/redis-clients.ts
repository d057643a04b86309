import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import type { RedisAuth, RedisTarget } from '../../config/redis-target';

type IoRedis = typeof import('ioredis');

/** Options of one connection that every target shares (timeouts, retries, the key prefix). */
export type BaseOptions = Pick<
  RedisOptions,
  | 'keyPrefix'
  | 'enableOfflineQueue'
  | 'maxRetriesPerRequest'
  | 'commandTimeout'
  | 'connectTimeout'
  | 'retryStrategy'
>;

/**
 * A primary that became a replica (a failover behind one address: Sentinel, a managed Redis's
 * primary endpoint) answers writes with READONLY: the client reconnects, to the new primary.
 */
const reconnectOnReadOnly = (error: Error): boolean => error.message.startsWith('READONLY');

const authOf = (auth: RedisAuth): RedisOptions => ({
  ...(auth.username !== undefined && { username: auth.username }),
  ...(auth.password !== undefined && { password: auth.password }),
  ...(auth.tls && { tls: {} }),
});

/**
 * The ioredis client of a target. One server: the URL as given. Sentinel: the Sentinels name the
 * primary, and a switch they announce (`+switch-master`) moves the client at once
 * (failoverDetector). Cluster: the seeds give the slot map; a node's failover or a moved slot is
 * followed by ioredis (MOVED, ASK, a slot refresh). While the cluster is down or a slot has no
 * primary, commands fail at once (no offline queue) and RedisStatus's breaker answers for it.
 */
export function redisClientOf(
  ioredis: IoRedis,
  target: RedisTarget,
  base: BaseOptions,
): Redis | Cluster {
  const { keyPrefix, enableOfflineQueue, retryStrategy, ...perNode } = base;
  if (target.mode === 'single') {
    return new ioredis.Redis(target.url, { ...base, reconnectOnError: reconnectOnReadOnly });
  }
  if (target.mode === 'sentinel') {
    return new ioredis.Redis({
      ...base,
      ...authOf(target.auth),
      sentinels: target.sentinels,
      name: target.name,
      db: target.db,
      enableTLSForSentinelMode: target.auth.tls,
      sentinelRetryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
      failoverDetector: true,
      reconnectOnError: reconnectOnReadOnly,
    });
  }
  const options: ClusterOptions = {
    keyPrefix,
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy,
    // A node that fails over is redirected around for at most about a breaker window: a command
    // then fails (503) rather than waits through the whole switch.
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    maxRedirections: 6,
    slotsRefreshTimeout: 1000,
    // The per-node fan-out of a cluster (a shard's reads, many slots' keys) in one write per node.
    enableAutoPipelining: true,
    redisOptions: { ...perNode, ...authOf(target.auth) },
  };
  return new ioredis.Cluster(target.nodes, options);
}

/**
 * The connection of the webhook queue (BullMQ makes its own, blocking ones included, so they
 * wait through an outage: no retry bound, no command timeout): options for one server or
 * Sentinel, a Cluster instance for a cluster (BullMQ takes a cluster only as an instance; the
 * caller closes it).
 */
export function queueConnectionOf(ioredis: IoRedis, target: RedisTarget): RedisOptions | Cluster {
  if (target.mode === 'cluster') {
    return new ioredis.Cluster(target.nodes, {
      redisOptions: { ...authOf(target.auth), maxRetriesPerRequest: null },
    });
  }
  if (target.mode === 'sentinel') {
    return {
      ...authOf(target.auth),
      sentinels: target.sentinels,
      name: target.name,
      db: target.db,
      enableTLSForSentinelMode: target.auth.tls,
      maxRetriesPerRequest: null,
      reconnectOnError: reconnectOnReadOnly,
    };
  }
  return { ...urlOptions(target.url), maxRetriesPerRequest: null };
}

/** `{ url }` as @nestjs/bullmq's connection takes a URL (ioredis parses it). */
const urlOptions = (url: string): RedisOptions => ({ url }) as RedisOptions;
