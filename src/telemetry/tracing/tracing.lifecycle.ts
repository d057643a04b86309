import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { flushTracing, runningTracing } from './tracing-state';

/** The longest the last trace export may take on the way out. */
const FLUSH_MAX_MS = 2000;

/**
 * The spans still buffered are exported when the application closes (SIGTERM included), within
 * a bound: at most 2 s and a quarter of SHUTDOWN_TIMEOUT_MS, so a stalled collector (whose
 * exporter would wait its own 10 s timeout) costs the spans, never the clean exit. Said in a line.
 */
@Injectable()
export class TracingLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Tracing');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** How long the flush may take: within the shutdown budget. */
  flushBoundMs(): number {
    return Math.min(FLUSH_MAX_MS, Math.floor(this.config.shutdownTimeoutMs / 4));
  }

  async onApplicationShutdown(): Promise<void> {
    if (!runningTracing()) return;
    const bound = this.flushBoundMs();
    const timeout = new AbortController();
    const flushed = flushTracing().then(
      () => 'flushed' as const,
      (error: unknown) => {
        this.logger.warn(`Trace export on shutdown failed: ${(error as Error)?.message ?? error}`);
        return 'failed' as const;
      },
    );
    const expired = delay(bound, 'expired' as const, { signal: timeout.signal, ref: false });
    expired.catch(() => undefined);
    const outcome = await Promise.race([flushed, expired]);
    timeout.abort();
    if (outcome === 'expired') {
      this.logger.warn(
        `Trace export did not finish within ${bound} ms (collector not answering): ` +
          'the last spans are dropped, the shutdown goes on',
      );
    }
  }
}
