import type { DestinationStream } from 'pino';

/** What the batch is handed to: sonic-boom, as pino.destination makes it. */
export interface BatchTarget extends DestinationStream {
  flush?(callback?: (error?: Error) => void): void;
  flushSync?(): void;
  /** sonic-boom's: a write in flight (it has no public getter; its flush does not wait for it). */
  _writing?: boolean;
  once?(event: 'drain', listener: () => void): unknown;
}

/**
 * Hands the lines written in one event-loop turn to `target` as one string, at the end of the
 * turn. sonic-boom appends every write to the text waiting for its write in flight and measures
 * that text's bytes each time (Buffer.byteLength flattens the concatenation), so a busy turn of
 * N access lines copied O(N²) bytes: 5–10 KB of garbage a request under load. Joined here, each
 * turn's text is measured and copied once. Lines still waiting when the process exits are passed
 * on first (a listener put ahead of sonic-boom's own exit flush), so nothing written is lost to
 * the batching.
 */
export class TurnBatchedStream implements DestinationStream {
  private pending: string[] = [];
  private scheduled = false;
  private readonly drain = (): void => this.passOn();

  constructor(private readonly target: BatchTarget) {
    process.prependListener('exit', this.drain);
  }

  write(line: string): void {
    this.pending.push(line);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.drain);
  }

  /** pino's `logger.flush`: what waits here, then what waits in the target. */
  flush(callback?: (error?: Error) => void): void {
    this.passOn();
    if (this.target.flush) this.target.flush(callback);
    else callback?.();
  }

  flushSync(): void {
    this.passOn();
    this.target.flushSync?.();
  }

  /**
   * Resolves once every line handed over is written: sonic-boom's flush returns at once while a
   * write is in flight, and an exit then cuts it, so a failed boot waits for its 'drain' instead.
   */
  written(): Promise<void> {
    this.passOn();
    const target = this.target;
    if (!target._writing || !target.once) return Promise.resolve();
    return new Promise((resolve) => target.once?.('drain', () => resolve()));
  }

  /** Stops listening for the exit (tests make many). */
  close(): void {
    this.passOn();
    process.removeListener('exit', this.drain);
  }

  private passOn(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    this.target.write(text);
  }
}
