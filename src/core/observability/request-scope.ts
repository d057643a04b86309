import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';

/** What the service knows of the request being served, wherever it is in the call chain. */
export interface RequestScope {
  /** The request's id: echoed as x-request-id, in every log line, sent to upstreams. */
  readonly id: string;
  /** Its server span, when tracing is on. */
  span?: Span;
  /** The async context after every onRequest hook ran (Nest middleware included). */
  resource?: AsyncResource;
  /** The contract's error code, when the answer is an error the exception filter rendered. */
  errorCode?: string;
}

const storage = new AsyncLocalStorage<RequestScope>();
const scopes = new WeakMap<FastifyRequest, RequestScope>();

/** The id of the request being served, if any: UpstreamBounds sends it as x-request-id. */
export const currentRequestId = (): string | undefined => storage.getStore()?.id;

export const scopeOf = (req: FastifyRequest): RequestScope | undefined => scopes.get(req);

/** Runs the rest of the request's hooks, and its handler, within a new scope. */
export function enterScope(req: FastifyRequest, scope: RequestScope, next: () => void): void {
  scopes.set(req, scope);
  storage.run(scope, next);
}

/** The error code the access line and the request's span report (set by the exception filter). */
export function noteErrorCode(req: FastifyRequest, code: string): void {
  const scope = scopes.get(req);
  if (scope) scope.errorCode = code;
}

/**
 * Async context does not follow a request body: Fastify reads it in the socket's callbacks, so a
 * handler reached after a body arrived in several packets would run outside every
 * AsyncLocalStorage entered in onRequest (this scope, nestjs-pino's request logger,
 * OpenTelemetry's active span). The context is captured once the onRequest hooks have run
 * (`preParsing`) and restored once the body is read (`preValidation`).
 */
export function captureContext(req: FastifyRequest): void {
  const scope = scopes.get(req);
  if (scope) scope.resource = new AsyncResource('dynamic-action-request');
}

export function restoreContext(req: FastifyRequest, next: () => void): void {
  const scope = scopes.get(req);
  if (!scope?.resource || storage.getStore() === scope) return next();
  scope.resource.runInAsyncScope(next);
}
