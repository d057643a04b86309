import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Cluster, Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import type { RedisTarget } from '../../config/redis-target';
import { redisClientOf } from './redis-clients';
import { EvictionPolicyCheck } from './eviction-policy.check';
import { limitLog } from '../logging/log-limiter';
import { logText } from '../logging/log-text';
import { outsideRequest } from '../logging/outside-request';
import { routeIoredisConsole } from './bullmq-console.bridge';

/** Injection token of the shared ioredis client; `null` when no Redis is configured. */
export const REDIS = Symbol('REDIS');

/** How long a command (and the health PING) may wait on a stalled server. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * The client every store takes: one server (or a Sentinel-managed primary) or a Redis Cluster.
 * Both take the same commands and scripts; a store written for both declares every key of a
 * script and keeps them in one hash slot (docs/operating.md, "Past one Redis").
 */
export type RedisClient = Redis | Cluster;

/** Whether the client is a Redis Cluster's: scans and multi-key reads then go node by node. */
export const isCluster = (redis: object): redis is Cluster =>
  (redis as Partial<Cluster>).isCluster === true;

/**
 * A client tuned for rate limiting: commands fail at once while disconnected (no offline queue)
 * and within a bound when the server stalls; it keeps reconnecting in the background and shared
 * limits resume when Redis is back. A stalled server (connected, never answering) is RedisStatus's
 * breaker's to see: the socket stays open, so the client alone would make every request wait.
 * The target (config/redis-target.ts) picks one server, a Sentinel-managed primary or a cluster.
 */
export function createRedisClient(target: RedisTarget | string, keyPrefix = ''): RedisClient {
  const chosen: RedisTarget = typeof target === 'string' ? { mode: 'single', url: target } : target;
  // A require, not an import: without REDIS_URL, ioredis is never loaded (about 20 ms of boot).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ioredis = require('ioredis') as typeof import('ioredis');
  return redisClientOf(ioredis, chosen, {
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
}

/**
 * What the stores built on Redis (rate-limit counters, the result cache) ask before each command
 * and tell after a failed one: while it says unusable they fall back at once, without waiting.
 */
export interface RedisBreaker {
  usable(): boolean;
  failed(error: unknown): void;
}

/**
 * One store call behind the breaker: refused at once (`unavailable`) while Redis is out, so only
 * the first request after an outage waits on it; a failure opens the breaker and is refused alike.
 */
export async function behindBreaker<T>(
  breaker: RedisBreaker,
  call: () => Promise<T>,
  unavailable: () => Error,
): Promise<T> {
  if (!breaker.usable()) throw unavailable();
  try {
    return await call();
  } catch (error) {
    breaker.failed(error);
    throw unavailable();
  }
}

const BOOT_WAIT_MS = 2000;
/** A PING this often: a Redis that stops answering is seen without any request waiting on it. */
export const REDIS_PROBE_INTERVAL_MS = 1000;

/**
 * Tracks the connection and whether Redis answers, so outages are logged once (down, then back),
 * readiness and `dynamic_action_redis_up` report them, and the stores skip Redis while it is out.
 * Down is either disconnected, or connected and not answering: a command or the probe's PING timed
 * out (the breaker is open). The probe closes the breaker by itself when a PING is answered again.
 * Each connection also reads the eviction policy, warning when it could drop intents or jobs.
 */
@Injectable()
export class RedisStatus implements OnModuleInit, OnApplicationShutdown, RedisBreaker {
  private readonly logger = new Logger('Redis');
  private connected = false;
  /** Open: connected, but a command went unanswered; closed again by an answered PING. */
  private open = false;
  /** Whether the current outage was logged already. */
  private reported = false;
  private probing = false;
  private timer?: NodeJS.Timeout;
  /** Run on each connection, in the background: neither the boot nor a request waits on it. */
  readonly eviction = new EvictionPolicyCheck();
  /** ioredis's console warnings go to the JSON log while a client is open. */
  private readonly releaseConsole: () => void;

  constructor(@Inject(REDIS) private readonly redis: RedisClient | null) {
    this.releaseConsole = redis ? routeIoredisConsole() : (): void => undefined;
    redis?.on('ready', () => {
      this.logger.log('Connected: rate limits and cache are shared');
      this.connected = true;
      this.open = false;
      this.reported = false;
      void this.eviction.check(redis);
    });
    redis?.on('error', (error: Error) => this.disconnected(error.message));
    redis?.on('end', () => this.disconnected('connection closed'));
  }

  /** Gives Redis a moment to connect before the first request; boots without it after that. */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (!redis) return;
    this.timer = setInterval(() => void this.probe(), REDIS_PROBE_INTERVAL_MS).unref();
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, BOOT_WAIT_MS);
      redis.once('ready', done);
    });
  }

  /** `disabled` when no REDIS_URL is configured. */
  state(): 'up' | 'down' | 'disabled' {
    if (!this.redis) return 'disabled';
    return this.usable() ? 'up' : 'down';
  }

  usable(): boolean {
    return this.connected && !this.open && this.redis?.status === 'ready';
  }

  /** A command went unanswered while connected: stop sending until a PING is answered. */
  failed(error: unknown): void {
    // Redis answered, with an error (OOM at maxmemory under noeviction, a wrong type): it is up,
    // and waits on nothing. Opening the breaker would report a full Redis as a dead one.
    if ((error as Error | undefined)?.name === 'ReplyError') {
      limitLog(this.logger).warn('reply', `A command was refused: ${logText(String(error))}`);
      return;
    }
    if (!this.usable()) return;
    this.open = true;
    this.report(`not answering: ${(error as Error)?.message ?? String(error)}`);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.releaseConsole();
    if (!this.redis || this.redis.status === 'end') return;
    this.connected = false;
    this.redis.removeAllListeners('end');
    await this.redis.quit().catch(() => undefined);
    // QUIT closes the command connection only: a Sentinel client's failover detector keeps its
    // subscriptions to the sentinels, reconnecting for ever once they go (ioredis#1362, fixed
    // after 5.11). disconnect() ends them too, and is a no-op for what QUIT already closed.
    this.redis.disconnect();
  }

  /**
   * One PING at a time; it fails within the command timeout when the server stalls. An answered
   * PING also ends an outage that no `ready` event will: a cluster client stays ready while one
   * of its nodes fails (its `error` events are the node's), and is usable again once the slot
   * moved to the replica.
   */
  private async probe(): Promise<void> {
    const redis = this.redis;
    if (!redis || this.probing || redis.status !== 'ready') return;
    this.probing = true;
    try {
      await redis.ping();
      if (this.open || !this.connected) {
        this.open = false;
        this.connected = true;
        this.reported = false;
        this.logger.log('Answering again: rate limits and cache are shared');
      }
    } catch (error) {
      this.failed(error);
    } finally {
      this.probing = false;
    }
  }

  private disconnected(reason: string): void {
    this.connected = false;
    this.report(reason);
  }

  /**
   * Logs an outage once, however it shows (errors, timeouts), until Redis is back: a state of the
   * process, so never under the id of the request whose command happened to time out first.
   */
  private report(reason: string): void {
    if (!this.reported) {
      outsideRequest(() =>
        this.logger.error(`Unavailable (${reason}); retrying in the background`),
      );
    }
    this.reported = true;
  }
}

export const redisProvider = {
  provide: REDIS,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): RedisClient | null =>
    config.redis ? createRedisClient(config.redis, config.redisKeyPrefix) : null,
};
