import type { ExportResult } from '@opentelemetry/core';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { EventEmitter, once } from 'node:events';

/** An in-memory exporter that says when spans arrive, so the tracing suites wait on events. */
export class SpanRecorder extends InMemorySpanExporter {
  private readonly events = new EventEmitter();

  /**
   * Keeps the spans as InMemorySpanExporter does, then announces them, so `waitFor` re-checks on
   * each export instead of polling.
   */
  override export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    super.export(spans, done);
    this.events.emit('export');
  }

  /** Resolves with what `find` finds in the spans ended so far, once it finds something. */
  async waitFor<T>(find: (spans: ReadableSpan[]) => T | undefined): Promise<T> {
    for (;;) {
      const found = find(this.getFinishedSpans());
      if (found !== undefined) return found;
      await once(this.events, 'export');
    }
  }

  /** Resolves once `count` spans of this trace have ended. */
  ofTrace(traceId: string, count: number): Promise<ReadableSpan[]> {
    return this.waitFor((spans) => {
      const trace = spans.filter((span) => span.spanContext().traceId === traceId);
      return trace.length >= count ? trace : undefined;
    });
  }
}
