import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';

/** Injection token of the shared ioredis client; `null` when REDIS_URL is unset. */
export const REDIS = Symbol('REDIS');

/**
 * A client tuned for rate limiting: commands fail at once while disconnected (no offline queue)
 * and within a bound when the server stalls, so no request ever waits on a dead Redis; it keeps
 * reconnecting in the background and shared limits resume when Redis is back.
 */
export function createRedisClient(url: string, keyPrefix = ''): Redis {
  return new Redis(url, {
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
}

const BOOT_WAIT_MS = 2000;

/** Tracks the connection so outages are logged once (down, then back) and readiness can report it. */
@Injectable()
export class RedisStatus implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  private up = false;
  /** Whether the current outage was logged already. */
  private reported = false;

  constructor(@Inject(REDIS) private readonly redis: Redis | null) {
    redis?.on('ready', () => {
      this.logger.log('Connected: rate limits and cache are shared');
      this.up = true;
      this.reported = false;
    });
    redis?.on('error', (error: Error) => this.down(error.message));
    redis?.on('end', () => this.down('connection closed'));
  }

  /** Gives Redis a moment to connect before the first request; boots without it after that. */
  async onModuleInit(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'ready') return;
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
    return this.up && this.redis.status === 'ready' ? 'up' : 'down';
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.redis || this.redis.status === 'end') return;
    this.up = false;
    this.redis.removeAllListeners('end');
    await this.redis.quit().catch(() => this.redis?.disconnect());
  }

  private down(reason: string): void {
    if (!this.reported) this.logger.error(`Unavailable (${reason}); retrying in the background`);
    this.reported = true;
    this.up = false;
  }
}

export const redisProvider = {
  provide: REDIS,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig): Redis | null =>
    config.redisUrl ? createRedisClient(config.redisUrl, config.redisKeyPrefix) : null,
};
