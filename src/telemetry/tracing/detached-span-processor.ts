import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';
import { outsideRequest } from '../logging/outside-request';

/**
 * A span processor fed outside the request whose span ends. The batch processor starts its export
 * timer on the first span of a batch, in the context of the call that ended it: a request's. The
 * export then ran in that request's scope, and `Trace export failed` carried its reqId and
 * trace_id, naming a request that had nothing to do with the collector being down.
 */
export class DetachedSpanProcessor implements SpanProcessor {
  constructor(private readonly inner: SpanProcessor) {}

  onStart(span: Span, parent: Context): void {
    this.inner.onStart(span, parent);
  }

  onEnd(span: ReadableSpan): void {
    outsideRequest(() => this.inner.onEnd(span));
  }

  forceFlush(): Promise<void> {
    return outsideRequest(() => this.inner.forceFlush());
  }

  shutdown(): Promise<void> {
    return outsideRequest(() => this.inner.shutdown());
  }
}
