import {
  type Attributes,
  context,
  createContextKey,
  SpanKind,
  SpanStatusCode,
} from '@opentelemetry/api';
import type { UndiciRequest } from '@opentelemetry/instrumentation-undici';
import { redactUrl } from '../../config/redact-url';
import { isTracingActive, tracer } from './tracing-state';

/** The configuration key of the upstream being called, for the HTTP span undici makes. */
const UPSTREAM = createContextKey('dynamic_action.upstream');
const METHOD = /"method"\s*:\s*"([\w.-]{1,64})"/g;
const MAX_METHODS = 8;

/** Runs `call` with the upstream's name in the trace context (nothing when tracing is off). */
export function withUpstream<T>(upstream: string, call: () => Promise<T>): Promise<T> {
  if (!isTracingActive()) return call();
  return context.with(context.active().setValue(UPSTREAM, upstream), call);
}

/**
 * Attributes of an outgoing HTTP span (the undici instrumentation's startSpanHook), replacing
 * the URL it would record: RPC and API URLs may carry keys in their path or query.
 */
export function upstreamSpanAttributes(request: UndiciRequest): Attributes {
  const [path, query] = splitOnce(request.path, '?');
  const upstream = context.active().getValue(UPSTREAM);
  return {
    'url.full': redactUrl(request.origin + request.path),
    'url.path': path === '/' || path === '' ? '/' : '/<path>',
    'url.query': query === undefined ? '' : '<query>',
    ...(typeof upstream === 'string' && { 'dynamic_action.upstream': upstream }),
  };
}

/** The JSON-RPC methods a request body calls (a batch may call several). */
function rpcMethods(body: unknown): string[] {
  if (typeof body !== 'string') return [];
  const methods = new Set<string>();
  for (const match of body.matchAll(METHOD)) {
    methods.add(match[1]);
    if (methods.size >= MAX_METHODS) break;
  }
  return [...methods];
}

/**
 * A client span around one JSON-RPC request to a node (a viem batch is one request); the HTTP
 * span of the call is its child. The node's URL is never recorded, only its configuration key.
 */
export async function jsonRpcSpan<T>(
  upstream: string,
  body: unknown,
  call: () => Promise<T>,
): Promise<T> {
  if (!isTracingActive()) return call();
  const methods = rpcMethods(body);
  const name = methods.length === 1 ? methods[0] : 'batch';
  return tracer().startActiveSpan(
    `jsonrpc ${name}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'rpc.system': 'jsonrpc',
        'rpc.method': methods.join(','),
        'dynamic_action.upstream': upstream,
      },
    },
    async (span) => {
      try {
        return await call();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.name });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
