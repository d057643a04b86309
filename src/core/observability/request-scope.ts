import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';

/** What the service knows of the request being served, wherever it is in the call chain. */
export interface RequestScope {
  /** The request's id: echoed as x-request-id, in every log line, sent to upstreams. */
  readonly id: string;
  /** Its server span, when tracing is on. */
  span?: Span;
  /** The contract's error code, when the answer is an error the exception filter rendered. */
  errorCode?: string;
}

const storage = new AsyncLocalStorage<RequestScope>();
const scopes = new WeakMap<FastifyRequest, RequestScope>();

/** The id of the request being served, if any: UpstreamBounds sends it as x-request-id. */
export const currentRequestId = (): string | undefined => storage.getStore()?.id;

/**
 * Runs the rest of the request's hooks, and its handler, within a new scope. Fastify runs the
 * handler in the context its hooks ran in, even when the body arrived in later packets.
 */
export function enterScope(req: FastifyRequest, scope: RequestScope, next: () => void): void {
  scopes.set(req, scope);
  storage.run(scope, next);
}

/** The error code the access line and the request's span report (set by the exception filter). */
export function noteErrorCode(req: FastifyRequest, code: string): void {
  const scope = scopes.get(req);
  if (scope) scope.errorCode = code;
}
