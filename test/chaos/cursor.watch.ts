import Redis from 'ioredis';

/** What the cursor did while watched. */
export interface CursorReport {
  /** Readings that found a cursor. */
  samples: number;
  /** Readings that failed (Redis down or restarting). */
  unreadable: number;
  first?: bigint;
  last?: bigint;
  /** Every reading lower than the one before it: "<before> -> <after>". */
  backwards: string[];
}

/**
 * Reads the follower's cursor (`<prefix>follower:{chain:<id>}:cursor`, "<number> <hash>") every
 * `everyMs` on a connection of its own, through Redis restarts, and notes each move backwards:
 * with fencing, no replica's follower ever writes an older block over a newer one.
 */
export class CursorWatch {
  readonly report: CursorReport = { samples: 0, unreadable: 0, backwards: [] };
  private readonly redis: Redis;
  private readonly timer: NodeJS.Timeout;
  private reading = false;

  constructor(url: string, key: string, everyMs = 50) {
    // No queue while Redis is down: a reading that cannot be made now is counted, not kept.
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.redis.on('error', () => undefined);
    this.timer = setInterval(() => void this.read(key), everyMs);
  }

  stop(): CursorReport {
    clearInterval(this.timer);
    this.redis.disconnect();
    return this.report;
  }

  private async read(key: string): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const value = await this.redis.get(key);
      if (value === null) return;
      const number = BigInt(value.split(' ')[0]);
      this.report.samples += 1;
      const last = this.report.last;
      if (last !== undefined && number < last) this.report.backwards.push(`${last} -> ${number}`);
      this.report.first ??= number;
      this.report.last = number;
    } catch {
      this.report.unreadable += 1;
    } finally {
      this.reading = false;
    }
  }
}
