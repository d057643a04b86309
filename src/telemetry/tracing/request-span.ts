import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { tracer } from './tracing-state';

export interface RequestSpan {
  span: Span;
  /** The context the request is served in: its span active, under the caller's trace if any. */
  context: Context;
}

/** A server span for the request, continuing the trace of an incoming `traceparent`. */
export function startRequestSpan(req: FastifyRequest): RequestSpan {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = tracer().startSpan(
    req.method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': req.method,
        'url.scheme': req.protocol,
        'client.address': req.ip,
        // The id of the access line and every log line of the request: search one, find the other.
        'dynamic_action.request_id': req.id,
      },
    },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

export interface RequestOutcome {
  /** The declared route (`/api/weather`); undefined when no route matched. */
  route?: string;
  /** The action's mode when an action was run. */
  mode?: string;
  status: number;
  errorCode?: string;
  aborted: boolean;
}

/** Names the span after its route (never the raw URL) and ends it with the answer's status. */
export function endRequestSpan(
  span: Span,
  method: string,
  { route, mode, status, errorCode, aborted }: RequestOutcome,
): void {
  const attributes: Attributes = { 'http.response.status_code': status };
  if (route !== undefined) {
    attributes['http.route'] = route;
    span.updateName(`${method} ${route}`);
  }
  if (mode !== undefined) {
    attributes['dynamic_action.action'] = route;
    attributes['dynamic_action.mode'] = mode;
  }
  if (errorCode !== undefined) attributes['dynamic_action.error_code'] = errorCode;
  if (aborted) attributes['dynamic_action.client_aborted'] = true;
  span.setAttributes(attributes);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Runs `next` (the rest of the request) with the request's span active. */
export const withinSpan = (spanContext: Context, next: () => void): void =>
  context.with(spanContext, next);

/** What joins a request's log lines to its trace: its ids, as the log field names `trace_id`, `span_id`. */
export function traceFields(span: Span): { trace_id: string; span_id: string } {
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
