import type { Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { type Store, storage } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { traceFields } from './tracing/request-span';

/** What the service knows of the request being served, wherever it is in the call chain. */
export interface RequestScope {
  /** The request's id: echoed as x-request-id, in every log line, sent to upstreams. */
  readonly id: string;
  /** Its server span, when tracing is on. */
  span?: Span;
  /** The contract's error code, when the answer is an error the exception filter rendered. */
  errorCode?: string;
  /** The transaction intent a transaction answer recorded (src/outcomes), for the access line. */
  intent?: string;
  /**
   * The signer's pending nonce, read in the transaction's simulation batch: the intent records
   * it, so a transaction mined at that nonce that is not the answered one reads as a replacement.
   */
  signerNonce?: SignerNonce;
}

export interface SignerNonce {
  chainId: number;
  address: string;
  nonce: number;
}

/**
 * nestjs-pino's per-request store (its `Logger` writes through `logger`, so every line Nest's
 * `Logger` writes while a request is served carries `reqId`), holding the request's scope too:
 * one AsyncLocalStorage run per request serves both. The child logger is made by the first line
 * the request logs, since most requests log nothing but their access line, which the observer
 * writes with the id itself.
 */
class ScopeStore implements Store {
  responseLogger?: Logger;
  private child?: Logger;

  constructor(
    private readonly root: Logger,
    readonly scope: RequestScope,
  ) {}

  get logger(): Logger {
    // A traced request's lines carry its trace and span ids too, joining logs to the trace.
    const span = this.scope.span;
    return (this.child ??= this.root.child(
      span ? { reqId: this.scope.id, ...traceFields(span) } : { reqId: this.scope.id },
    ));
  }

  /** nestjs-pino's `PinoLogger.assign` replaces it with a child carrying more fields. */
  set logger(logger: Logger) {
    this.child = logger;
  }
}

/**
 * The scope rides on the request itself, under a symbol, rather than in a WeakMap: every request
 * would add an entry the garbage collector treats as an ephemeron, and a lookup hashes.
 */
const SCOPE = Symbol('requestScope');
type Scoped = IncomingMessage & { [SCOPE]?: RequestScope };

/** The scope of a request being served (or served), by its Node request. */
export const scopeOf = (raw: IncomingMessage): RequestScope | undefined => (raw as Scoped)[SCOPE];

/** The id of the request being served, if any: UpstreamBounds sends it as x-request-id. */
export const currentRequestId = (): string | undefined => {
  const store = storage.getStore();
  return store instanceof ScopeStore ? store.scope.id : undefined;
};

/** Notes the nonce a simulation read for the request being served (none outside a request). */
export function noteSignerNonce(nonce: SignerNonce): void {
  const store = storage.getStore();
  if (store instanceof ScopeStore) store.scope.signerNonce = nonce;
}

/**
 * Runs the rest of the request's hooks, and its handler, within its scope, logging through
 * `root`. Fastify runs the handler in the context its hooks ran in, even when the body arrived
 * in later packets.
 */
export function enterScope(
  req: FastifyRequest,
  root: Logger,
  scope: RequestScope,
  next: () => void,
): void {
  (req.raw as Scoped)[SCOPE] = scope;
  storage.run(new ScopeStore(root, scope), next);
}

/** The error code the access line and the request's span report (set by the exception filter). */
export function noteErrorCode(req: FastifyRequest, code: string): void {
  const scope = scopeOf(req.raw);
  if (scope) scope.errorCode = code;
}

/** The intent id the access line carries (set by the outcomes layer's interceptor). */
export function noteIntent(req: FastifyRequest, intent: string): void {
  const scope = scopeOf(req.raw);
  if (scope) scope.intent = intent;
}
