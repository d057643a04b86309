import { Logger } from '@nestjs/common';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { limitLog } from '../logging/log-limiter';
import { logText } from '../logging/log-text';

/**
 * The exporter, saying when an export fails: the SDK would drop the spans silently. One line a
 * minute at most while the collector stays unreachable (the limiter counts the rest), its reason
 * cut to one line and its URLs to scheme and host (as every log line is).
 */
export class ReportingExporter implements SpanExporter {
  private readonly logger = new Logger('Tracing');

  constructor(private readonly exporter: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.exporter.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) {
        const reason = logText(result.error?.message ?? 'unknown error');
        limitLog(this.logger).warn(
          'export-failed',
          `Trace export failed, ${spans.length} spans dropped: ${reason}`,
        );
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}
