import type { Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

/** How long a repeated line stays quiet after it was written. */
export const REPEAT_INTERVAL_MS = 60_000;
/** Distinct lines remembered at once; past it the least recently seen is forgotten. */
const MAX_KEYS = 1_000;

interface Seen {
  /** Until when repeats of this key are counted instead of written. */
  quietUntil: number;
  suppressed: number;
}

export interface LogLimiterOptions {
  intervalMs?: number;
  maxKeys?: number;
  now?: () => number;
}

/**
 * Writes a line at most once per key per interval: an outage or an attacker repeating one
 * failure gives one line a minute, not one per request. The next line written for a key says how
 * many were held back. Keys should not hold user text (it would make every line distinct); the
 * memory they take is bounded either way.
 */
export class LogLimiter {
  private readonly seen: LRUCache<string, Seen>;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly logger: Logger,
    { intervalMs = REPEAT_INTERVAL_MS, maxKeys = MAX_KEYS, now = Date.now }: LogLimiterOptions = {},
  ) {
    this.seen = new LRUCache<string, Seen>({ max: maxKeys });
    this.intervalMs = intervalMs;
    this.now = now;
  }

  error(key: string, message: string, stack?: string): void {
    const line = this.admit(key, message);
    if (line !== undefined) this.logger.error(line, stack);
  }

  warn(key: string, message: string): void {
    const line = this.admit(key, message);
    if (line !== undefined) this.logger.warn(line);
  }

  debug(key: string, message: string): void {
    const line = this.admit(key, message);
    if (line !== undefined) this.logger.debug(line);
  }

  /** The line to write now, or undefined while the key is quiet (the repeat is counted). */
  private admit(key: string, message: string): string | undefined {
    const now = this.now();
    const seen = this.seen.get(key);
    if (seen && now < seen.quietUntil) {
      seen.suppressed += 1;
      return undefined;
    }
    this.seen.set(key, { quietUntil: now + this.intervalMs, suppressed: 0 });
    if (!seen?.suppressed) return message;
    const seconds = Math.round(this.intervalMs / 1000);
    return `${message} (${seen.suppressed} more like this since the last one, logged at most every ${seconds}s)`;
  }
}

const limiters = new WeakMap<Logger, LogLimiter>();

/**
 * The limiter of a Logger instance, made on first use: a service keeps its one `logger` field and
 * only its call changes, `limitLog(this.logger).warn(key, message)`.
 */
export function limitLog(logger: Logger): LogLimiter {
  let limiter = limiters.get(logger);
  if (!limiter) {
    limiter = new LogLimiter(logger);
    limiters.set(logger, limiter);
  }
  return limiter;
}
