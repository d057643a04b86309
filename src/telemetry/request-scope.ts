import type { Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { PinoLogger } from 'nestjs-pino';
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
  /** Whether the request's user was proven (a session) or only claimed; unset without a user. */
  userVerified?: boolean;
  /**
   * The signer's pending nonce, read in the transaction's simulation batch: the intent records
   * it, so a transaction mined at that nonce that is not the answered one reads as a replacement.
   */
  signerNonce?: SignerNonce;
  /**
   * The tag the transaction answer being built carries in its calldata (src/evm's answer-tag.ts):
   * the id its intent is recorded under, chosen before the simulation that checks it.
   */
  answerTag?: string;
}

export interface SignerNonce {
  chainId: number;
  address: string;
  nonce: number;
  /** The head the simulation read: a transaction mined at or below it predates the answer. */
  block?: bigint;
}

/**
 * The scope rides on the request itself, under a symbol, rather than in a WeakMap: every request
 * would add an entry the garbage collector treats as an ephemeron, and a lookup hashes.
 */
const SCOPE = Symbol('requestScope');
type Scoped = IncomingMessage & { [SCOPE]?: RequestScope };

/** The scope of a request being served (or served), by its Node request. */
export const scopeOf = (raw: IncomingMessage): RequestScope | undefined => (raw as Scoped)[SCOPE];

/**
 * The request's logging context is nestjs-pino's (one AsyncLocalStorage run per request serves
 * both it and the scope): `PinoLogger.runInContext` binds a child of the root logger with the
 * request's id (and trace ids), so every line Nest's `Logger`, `PinoLogger` or
 * `@InjectPinoLogger()` writes while the request is served carries `reqId`, and `assign` works.
 * The scope rides on that child under a symbol; pino's children inherit from their parent, so
 * the children `assign` makes find it too. nestjs-pino 5 exports no store of its own any more
 * (only its package entry), hence the child.
 */
type ScopedLogger = Logger & { [SCOPE]?: RequestScope };

/** Any PinoLogger opens and reads nestjs-pino's context (its one AsyncLocalStorage). */
let contexts: PinoLogger | undefined;

/** The scope a context's logger carries (the request's child, or a child `assign` made of it). */
const scopeOfLogger = (logger: ScopedLogger | undefined): RequestScope | undefined =>
  logger?.[SCOPE];

/** The scope of the request being served, if any. */
const currentScope = (): RequestScope | undefined => scopeOfLogger(contexts?.logger);

/** The id of the request being served, if any: UpstreamBounds sends it as x-request-id. */
export const currentRequestId = (): string | undefined => currentScope()?.id;

/** Notes the nonce a simulation read for the request being served (none outside a request). */
export function noteSignerNonce(nonce: SignerNonce): void {
  const scope = currentScope();
  if (scope) scope.signerNonce = nonce;
}

/**
 * The answer tag of the request being served, made by `make` the first time it is asked for;
 * undefined outside a request (nothing records an intent there).
 */
export function answerTagOf(make: () => string): string | undefined {
  const scope = currentScope();
  if (!scope) return undefined;
  return (scope.answerTag ??= make());
}

/**
 * Runs the rest of the request's hooks, and its handler, within its scope and logging context.
 * Fastify runs the handler in the context its hooks ran in, even when the body arrived in later
 * packets. The child is made of nestjs-pino's root logger: the first the process gave it, which
 * in a service is the one ROOT_LOGGER its module holds; `root` stands in for it only where no
 * module was made (a unit spec).
 */
export function enterScope(
  req: FastifyRequest,
  root: Logger,
  scope: RequestScope,
  next: () => void,
): void {
  (req.raw as Scoped)[SCOPE] = scope;
  contexts ??= new PinoLogger({ pinoHttp: { logger: root }, useExisting: true });
  const span = scope.span;
  contexts.runInContext(
    () => {
      const child: ScopedLogger = contexts!.logger;
      child[SCOPE] = scope;
      next();
    },
    { bindings: span ? { reqId: scope.id, ...traceFields(span) } : { reqId: scope.id } },
  );
}

/** The error code the access line and the request's span report (set by the exception filter). */
export function noteErrorCode(req: FastifyRequest, code: string): void {
  const scope = scopeOf(req.raw);
  if (scope) scope.errorCode = code;
}

/** How sure the service is of the request's user, for the access line (`user_verified`). */
export function noteUserLevel(req: FastifyRequest, level: 'claimed' | 'siwe'): void {
  const scope = scopeOf(req.raw);
  if (scope) scope.userVerified = level !== 'claimed';
}

/** The intent id the access line carries (set by the outcomes layer's interceptor). */
export function noteIntent(req: FastifyRequest, intent: string): void {
  const scope = scopeOf(req.raw);
  if (scope) scope.intent = intent;
}
