import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { storage } from 'nestjs-pino/storage';
import pino from 'pino';
import { DetachedSpanProcessor } from './detached-span-processor';

/**
 * An exporter that fails and logs it as nestjs-pino's logger does: through the logger of the
 * request scope it runs in, if any (a request's child, carrying reqId and trace_id).
 */
class FailingExporter implements SpanExporter {
  constructor(private readonly root: pino.Logger) {}

  export(_spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    (storage.getStore()?.logger ?? this.root).warn({ context: 'Tracing' }, 'Trace export failed');
    done({ code: ExportResultCode.FAILED });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The export line of a span ended inside a request, its batch exported by the batch's timer. */
async function exportLine(wrap: (batch: SpanProcessor) => SpanProcessor): Promise<unknown> {
  const lines: Record<string, unknown>[] = [];
  const root = pino({ base: null }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const batch = new BatchSpanProcessor({
    exporter: new FailingExporter(root),
    scheduledDelayMillis: 10,
  });
  const provider = new TracerProvider({ spanProcessors: [wrap(batch)] });
  const request = { logger: root.child({ reqId: 'req-1', trace_id: 'a'.repeat(32) }) };
  // The span ends while the request is served: the batch processor starts its timer then.
  storage.run(request, () => provider.getTracer('test').startSpan('request').end());
  while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await provider.shutdown();
  return lines[0];
}

describe('DetachedSpanProcessor', () => {
  it("keeps a request's ids off the line its batch timer's export writes", async () => {
    const line = await exportLine((batch) => new DetachedSpanProcessor(batch));
    expect(line).toEqual({
      level: 40,
      time: expect.any(Number),
      context: 'Tracing',
      msg: 'Trace export failed',
    });
  });

  it('is needed: without it the timer, made in the request, writes its reqId and trace_id', async () => {
    const line = await exportLine((batch) => batch);
    expect(line).toMatchObject({ reqId: 'req-1', trace_id: 'a'.repeat(32) });
  });
});
