import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The async context this module was loaded in: the boot's, outside every request. Running in it
 * leaves each AsyncLocalStorage's request store (nestjs-pino's among them) behind, without
 * reaching into any library's own storage.
 */
const atBoot = AsyncLocalStorage.snapshot();

/**
 * Runs `work` outside any request's scope. Timers, intervals and event handlers keep the async
 * context they were made in: background work first started while a request is served (a span
 * processor's export timer, a breaker a request's command opened) would otherwise write that
 * request's `reqId`, `trace_id` and `span_id` on its lines long after the answer, and parent its
 * spans to the request's. Use it where such work is started, not where it logs.
 */
export function outsideRequest<T>(work: () => T): T {
  return atBoot(() => context.with(ROOT_CONTEXT, work));
}
