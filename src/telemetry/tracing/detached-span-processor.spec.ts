import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { DetachedSpanProcessor } from './detached-span-processor';

/**
 * An exporter that fails and logs it as nestjs-pino's logger does: through the logger of the
 * request scope it runs in, if any (a request's child, carrying reqId and trace_id).
 */
class FailingExporter implements SpanExporter {
  constructor(private readonly contexts: PinoLogger) {}

  export(_spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.contexts.logger.warn({ context: 'Tracing' }, 'Trace export failed');
    done({ code: ExportResultCode.FAILED });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const lines: Record<string, unknown>[] = [];
const root = pino({ base: null }, { write: (line: string) => lines.push(JSON.parse(line)) });
// nestjs-pino's request contexts, as the service's request scope runs them; one for the file,
// since nestjs-pino keeps the first root it is given for every context made after.
const contexts = new PinoLogger({ pinoHttp: { logger: root }, useExisting: true });

/** The export line of a span ended inside a request, its batch exported by the batch's timer. */
async function exportLine(wrap: (batch: SpanProcessor) => SpanProcessor): Promise<unknown> {
  lines.length = 0;
  const batch = new BatchSpanProcessor({
    exporter: new FailingExporter(contexts),
    scheduledDelayMillis: 10,
  });
  const provider = new TracerProvider({ spanProcessors: [wrap(batch)] });
  // The span ends while the request is served: the batch processor starts its timer then.
  contexts.runInContext(() => provider.getTracer('test').startSpan('request').end(), {
    bindings: { reqId: 'req-1', trace_id: 'a'.repeat(32) },
  });
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
