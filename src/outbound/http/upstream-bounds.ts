import { Inject, Injectable, type OnModuleDestroy, Optional } from '@nestjs/common';
import {
  isBrokenCircuitError,
  isBulkheadRejectedError,
  isTaskCancelledError,
  timeout,
  TimeoutStrategy,
} from 'cockatiel';
import { LRUCache } from 'lru-cache';
import { performance } from 'node:perf_hooks';
import { EXTERNAL_CONFIG, type ExternalConfig } from '../../config/external.config';
import { ActionMetrics, type UpstreamOutcome } from '../../telemetry/metrics/action-metrics';
import { currentRequestId } from '../../telemetry/request-scope';
import { jsonRpcSpan, withUpstream } from '../../telemetry/tracing/upstream-spans';
import { HostPolicy, type Lane } from './host-policy';
import { UpstreamError } from './upstream.error';
import { networkError, readAnswer, refuseRedirect } from './upstream-answer';
import { UpstreamRefusal } from './upstream-refusal.exception';
import {
  PostAnswer,
  postOnce,
  type RpcPost,
  splitCredentials,
  upstreamPool,
} from './upstream-post';
import type { Pool } from 'undici';

/** The `fetch` viem's http transport calls (its `fetchFn` option). */
export type RpcFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface BoundedCallOptions {
  /** The whole call, wait for a slot included, ends after this many milliseconds. */
  timeoutMs: number;
  /** The caller's own cancellation; its reason is rethrown as is. */
  signal?: AbortSignal;
  /**
   * The configuration key naming the upstream (`weather_geocoding`, `prices`, `rpc_43113`): its
   * metrics label and span attribute. Never a URL, which may carry a key.
   */
  upstream?: string;
  /** Calls on a bulkhead of their own on the host, apart from its other calls (Lane). */
  lane?: Lane;
}

/** Headers every upstream call carries: the request id the client saw, for joining logs. */
export type UpstreamHeaders = Record<string, string>;

/** What a failed call counts as in dynamic_action_upstream_requests_total. */
function outcomeOf(error: unknown, cancelled: boolean): UpstreamOutcome {
  if (cancelled) return 'cancelled';
  if (error instanceof UpstreamRefusal) return error.reason;
  if (error instanceof UpstreamError) return error.kind;
  return 'error';
}

/**
 * Hosts come from the configuration (API URLs, RPC URLs), so a handful are ever used; the bound
 * only keeps a misconfiguration from growing the map without end.
 */
const MAX_HOSTS = 256;

/** A JSON answer (API or RPC) larger than this is refused, so a faulty host cannot exhaust memory. */
export const MAX_ANSWER_BYTES = 4 * 1_048_576;

/**
 * Per-host bounds on calls to external services, shared by ExternalHttp and the RPC transports
 * (one HostPolicy per origin, made on first use): at most EXTERNAL_MAX_CONCURRENCY calls in
 * flight per host and EXTERNAL_MAX_QUEUE waiting (more are refused at once: 503 UPSTREAM_BUSY),
 * and a circuit that opens after EXTERNAL_CIRCUIT_THRESHOLD consecutive host failures, so a dead
 * host costs no time at all (503 UPSTREAM_UNAVAILABLE) until one probe is let through after
 * EXTERNAL_CIRCUIT_COOLDOWN_MS. The caller's timeout covers the wait for a slot as well as the call.
 * Calls on a Lane get bounds of their own on the host, apart from its other calls.
 */
@Injectable()
export class UpstreamBounds implements OnModuleDestroy {
  private readonly hosts = new LRUCache<string, HostPolicy>({ max: MAX_HOSTS });
  /** rpcPost's connection pools, one per origin (a handful: the configured RPC URLs). */
  private readonly pools = new LRUCache<string, Pool>({
    max: MAX_HOSTS,
    // Evicted (a misconfiguration's hundreds of hosts): closed once its requests are answered.
    dispose: (pool, _origin, reason) => {
      if (reason === 'evict') void pool.close().catch(() => undefined);
    },
  });

  constructor(
    /**
     * The EXTERNAL_* bounds, public so ExternalHttp and the RPC transports default their timeouts
     * to the same EXTERNAL_TIMEOUT_MS.
     */
    @Inject(EXTERNAL_CONFIG) readonly config: ExternalConfig,
    @Optional() private readonly metrics?: ActionMetrics,
  ) {}

  /**
   * Runs `call` within the bounds of the host of `url`; `call` gets the signal to honour and the
   * headers to send (`x-request-id`; `traceparent` is added by the tracing instrumentation).
   * Each call is counted and timed under its `upstream` name.
   */
  async call<T>(
    url: string | URL,
    { timeoutMs, signal, upstream = 'other', lane }: BoundedCallOptions,
    call: (signal: AbortSignal, headers: UpstreamHeaders) => Promise<T>,
  ): Promise<T> {
    const id = currentRequestId();
    const headers: UpstreamHeaders = id === undefined ? {} : { 'x-request-id': id };
    const metrics = this.metrics?.upstream(upstream);
    const started = performance.now();
    try {
      const result = await withUpstream(upstream, () =>
        this.bounded(url, timeoutMs, signal, (inner) => call(inner, headers), lane),
      );
      const failed = (result instanceof Response || result instanceof PostAnswer) && !result.ok;
      metrics?.record(failed ? 'status' : 'ok', (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      const refused = error instanceof UpstreamRefusal;
      const seconds = refused ? undefined : (performance.now() - started) / 1000;
      metrics?.record(outcomeOf(error, signal?.aborted === true), seconds);
      throw error;
    }
  }

  private async bounded<T>(
    url: string | URL,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    call: (signal: AbortSignal) => Promise<T>,
    lane?: Lane,
  ): Promise<T> {
    const timedOut = (): UpstreamError =>
      new UpstreamError('timeout', `Upstream did not answer within ${timeoutMs} ms`);
    // Aggressive: the caller is answered at the deadline even while still queued for a slot.
    const deadline = timeout(timeoutMs, TimeoutStrategy.Aggressive);
    try {
      const host = this.policyFor(url, lane);
      return await deadline.execute(
        ({ signal: bounded }) =>
          host.execute(async (inner) => {
            try {
              return await call(inner);
            } catch (error) {
              // Aborted by the deadline, not by the caller: the host was too slow, which counts.
              if (inner.aborted && !signal?.aborted) throw timedOut();
              throw error;
            }
          }, bounded),
        signal,
      );
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (isBulkheadRejectedError(error)) throw new UpstreamRefusal('busy');
      if (isBrokenCircuitError(error)) throw new UpstreamRefusal('unavailable');
      if (isTaskCancelledError(error)) throw timedOut();
      throw error;
    }
  }

  /**
   * A `fetch` for viem's http transport: each request goes through the host's bounds, redirects
   * are refused, and the answer is read whole while the slot is held (a node that stalls half-way
   * through its body still counts against its host, and never holds more sockets than allowed).
   */
  fetchFn(timeoutMs: number, upstream?: string, lane?: Lane): RpcFetch {
    return (input, init = {}) => {
      const url = input instanceof Request ? input.url : input;
      const options = { timeoutMs, signal: init.signal ?? undefined, upstream, lane };
      const call = (): Promise<Response> =>
        this.call(url, options, async (signal, extra) => {
          try {
            const headers = new Headers(init.headers);
            for (const [name, value] of Object.entries(extra)) headers.set(name, value);
            const response = await fetch(input, { ...init, headers, signal, redirect: 'manual' });
            await refuseRedirect(response);
            const body = await readAnswer(response, MAX_ANSWER_BYTES);
            const type = response.headers.get('content-type');
            return new Response(body.byteLength > 0 ? body : null, {
              status: response.status,
              statusText: response.statusText,
              headers: type ? { 'content-type': type } : {},
            });
          } catch (error) {
            // fetch reports a failed connection or a cut answer as a TypeError naming the host.
            throw error instanceof TypeError ? networkError(error) : error;
          }
        });
      // One JSON-RPC span per request to the node (a viem batch is one), the HTTP span its child.
      return jsonRpcSpan(upstream ?? 'other', init.body, call);
    };
  }

  /**
   * RpcBatch's sender: POSTs a JSON-RPC body to `url` through the host's bounds as `fetchFn` does
   * (concurrency, queue, circuit, timeout, metrics, the JSON-RPC span, `x-request-id`; redirects
   * refused, answers of at most MAX_ANSWER_BYTES read whole while the slot is held), on a
   * keep-alive undici pool instead of fetch (upstream-post.ts says why). Credentials in the URL
   * are sent as Basic authorization, as viem's transport does.
   */
  rpcPost(url: string, timeoutMs: number, upstream?: string): RpcPost {
    const { url: target, headers: auth } = splitCredentials(url);
    const path = `${target.pathname}${target.search}`;
    const options = { timeoutMs, upstream };
    return (body) =>
      jsonRpcSpan(upstream ?? 'other', body, () =>
        this.call(target, options, (signal, extra) => {
          const headers = { ...auth, 'content-type': 'application/json', ...extra };
          return postOnce(
            this.poolFor(target.origin),
            path,
            body,
            headers,
            signal,
            MAX_ANSWER_BYTES,
          );
        }),
      );
  }

  /** Closes rpcPost's pools (their idle keep-alive sockets) when the app stops. */
  async onModuleDestroy(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => undefined)));
  }

  private poolFor(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = upstreamPool(origin, this.config.maxConcurrency);
      this.pools.set(origin, pool);
    }
    return pool;
  }

  private policyFor(url: string | URL, lane?: Lane): HostPolicy {
    const origin = new URL(url).origin;
    const key = lane ? `${lane.name} ${origin}` : origin;
    let policy = this.hosts.get(key);
    if (!policy) {
      policy = new HostPolicy(lane ? { ...this.config, ...lane } : this.config);
      this.hosts.set(key, policy);
    }
    return policy;
  }
}
