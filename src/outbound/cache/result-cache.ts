import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CACHE_CONFIG, type CacheConfig } from '../../config/cache.config';
import { type JsonSafe, jsonSafe } from '../../contract/json-safe';
import { limitLog } from '../../telemetry/logging/log-limiter';
import { logText } from '../../telemetry/logging/log-text';
import { ActionMetrics } from '../../telemetry/metrics/action-metrics';
import { CacheStore } from './cache.store';

/** What the cache itself reads of CACHE_CONFIG (the store's size is the store's business). */
export type ResultCacheConfig = Pick<CacheConfig, 'ttlSeconds' | 'prefix'>;

/** A read the store failed: counted as `error`, then computed as a miss. */
const READ_FAILED = Symbol('read failed');

/**
 * What getOrCompute answers: the value, and whether it came from the cache, so a service can say so
 * in its answer's metadata.
 */
export interface Cached<T> {
  /** The value as JSON keeps it (json-safe.ts): the same on a hit and on a miss. */
  value: JsonSafe<T>;
  /** True when the value came from the cache rather than this call's computation. */
  cached: boolean;
}

/**
 * Keyed get-or-compute for action services. Concurrent computations of one key in this process
 * share one promise; results are stored as JSON with a per-entry TTL. A failing store never fails
 * the request: the value is computed as if nothing were cached. Errors are never cached. Values
 * are stored by the kit's JSON-safe rule (bigint → decimal text, Date → ISO text), and a miss
 * answers the same converted value a later hit will, so the service sees one type.
 */
@Injectable()
export class ResultCache {
  private readonly logger = new Logger(ResultCache.name);
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: CacheStore,
    @Inject(CACHE_CONFIG) private readonly config: ResultCacheConfig,
    @Optional() private readonly metrics?: ActionMetrics,
  ) {}

  /**
   * The cached value of `key`, or `compute()`'s, stored for `ttlSeconds` (CACHE_TTL_SECONDS by
   * default). Concurrent misses of one key in this process share one computation; a failing store
   * only costs the computation; errors are not cached. Put everything the answer depends on in the
   * key (normalizeKeyText).
   */
  async getOrCompute<T>(
    key: string,
    compute: () => Promise<T>,
    ttlSeconds = this.config.ttlSeconds,
  ): Promise<Cached<T>> {
    const hit = await this.read<JsonSafe<T>>(key);
    if (hit !== undefined && hit !== READ_FAILED) {
      this.metrics?.cacheLookup('hit');
      return { value: hit, cached: true };
    }
    const running = this.inFlight.get(key) as Promise<JsonSafe<T>> | undefined;
    this.metrics?.cacheLookup(hit === READ_FAILED ? 'error' : running ? 'coalesced' : 'miss');
    if (running) return { value: await running, cached: true };
    const computation = this.computeAndStore(key, compute, ttlSeconds);
    this.inFlight.set(key, computation);
    try {
      return { value: await computation, cached: false };
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async computeAndStore<T>(
    key: string,
    compute: () => Promise<T>,
    ttlSeconds: number,
  ): Promise<JsonSafe<T>> {
    const value = jsonSafe(await compute()) as JsonSafe<T>;
    try {
      await this.store.set(this.config.prefix + key, JSON.stringify(value), ttlSeconds * 1000);
    } catch (error) {
      this.storeFailed('write', key, error);
    }
    return value;
  }

  private async read<T>(key: string): Promise<T | undefined | typeof READ_FAILED> {
    try {
      const raw = await this.store.get(this.config.prefix + key);
      return raw === undefined ? undefined : (JSON.parse(raw) as T);
    } catch (error) {
      this.storeFailed('read', key, error);
      return READ_FAILED;
    }
  }

  /** While the store is down every request fails the same way: one line a minute, key escaped. */
  private storeFailed(what: 'read' | 'write', key: string, error: unknown): void {
    const reason = logText((error as Error)?.message ?? error);
    limitLog(this.logger).debug(
      `${what} ${reason}`,
      `Cache ${what} failed for ${logText(key)}: ${reason}`,
    );
  }
}
