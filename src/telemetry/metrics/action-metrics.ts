import { Injectable, Optional } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RedisStatus } from '../redis/redis.provider';

export type CacheLookupResult = 'hit' | 'miss' | 'coalesced' | 'error';
/** How a call to an external API or RPC node ended; `busy`/`unavailable`: refused unsent. */
export type UpstreamOutcome =
  | 'ok'
  | 'status'
  | 'timeout'
  | 'network'
  | 'malformed'
  | 'redirect'
  | 'busy'
  | 'unavailable'
  | 'cancelled'
  | 'error';

/** 1 ms to 10 s: a calculator answer to a slow upstream at its timeout. */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type CounterChild = ReturnType<Counter<string>['labels']>;
type HistogramChild = ReturnType<Histogram<string>['labels']>;

/** The children of one route's series, made once: recording is then a map lookup and adds. */
export class RouteMetrics {
  private readonly byStatus = new Map<number, CounterChild>();

  constructor(
    private readonly requests: Counter<'action' | 'mode' | 'status'>,
    private readonly duration: HistogramChild,
    private readonly action: string,
    private readonly mode: string,
  ) {}

  /** `seconds` unknown for an answer written before a request was read: counted, not timed. */
  record(status: number, seconds?: number): void {
    let counter = this.byStatus.get(status);
    if (!counter) {
      counter = this.requests.labels(this.action, this.mode, String(status));
      this.byStatus.set(status, counter);
    }
    counter.inc();
    if (seconds !== undefined) this.duration.observe(seconds);
  }
}

export class UpstreamMetrics {
  private readonly byOutcome = new Map<UpstreamOutcome, CounterChild>();

  constructor(
    private readonly calls: Counter<'upstream' | 'outcome'>,
    private readonly duration: HistogramChild,
    private readonly upstream: string,
  ) {}

  /** `seconds` only for calls that were made: a refusal takes no time and would skew the histogram. */
  record(outcome: UpstreamOutcome, seconds?: number): void {
    let counter = this.byOutcome.get(outcome);
    if (!counter) {
      counter = this.calls.labels(this.upstream, outcome);
      this.byOutcome.set(outcome, counter);
    }
    counter.inc();
    if (seconds !== undefined) this.duration.observe(seconds);
  }
}

/**
 * The service's Prometheus families, in a registry of its own (served by MetricsServer on
 * METRICS_PORT, never on the public port). Every label value comes from the code or the
 * configuration (declared routes, limit names, configuration keys), never from a request.
 */
@Injectable()
export class ActionMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'dynamic_action_requests_total',
    help: 'Requests answered, by action (declared path or route; `unknown` when none matched), mode and HTTP status (499: the client left first)',
    labelNames: ['action', 'mode', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'dynamic_action_request_duration_seconds',
    help: 'Time from the request to the end of its answer',
    labelNames: ['action', 'mode'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  private readonly rateLimitedTotal = new Counter({
    name: 'dynamic_action_rate_limited_total',
    help: 'Requests refused with 429, by action and by the limit they crossed (ip or user)',
    labelNames: ['action', 'limit'] as const,
    registers: [this.registry],
  });
  private readonly userRequests = new Counter({
    name: 'dynamic_action_user_requests_total',
    help: 'Action requests that name a user, by action and how sure the service is of it: claimed (a header or the body) or siwe (a Sign-In with Ethereum session)',
    labelNames: ['action', 'level'] as const,
    registers: [this.registry],
  });
  private readonly userLevels = new Map<string, { claimed?: CounterChild; siwe?: CounterChild }>();
  private readonly upstreamCalls = new Counter({
    name: 'dynamic_action_upstream_requests_total',
    help: 'Calls to external APIs and RPC nodes, by configuration key and outcome',
    labelNames: ['upstream', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly upstreamSeconds = new Histogram({
    name: 'dynamic_action_upstream_duration_seconds',
    help: 'Time a call to an external API or RPC node took, wait for a slot included',
    labelNames: ['upstream'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [this.registry],
  });
  private readonly cacheLookups = new Counter({
    name: 'dynamic_action_cache_lookups_total',
    help: 'Result cache lookups: hit, miss (computed), coalesced (joined a computation in flight), error (store failed)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  /** Counted in a plain number and read when scraped: two gauge updates a request cost more. */
  private inFlightCount = 0;
  private readonly inFlight = new Gauge({
    name: 'dynamic_action_in_flight_requests',
    help: 'Requests received and not yet answered',
    registers: [this.registry],
    collect: (): void => this.inFlight.set(this.inFlightCount),
  });
  private readonly routes = new Map<string, RouteMetrics>();
  private readonly upstreams = new Map<string, UpstreamMetrics>();
  private readonly cacheResults: Record<CacheLookupResult, CounterChild>;
  private processMetrics = false;

  constructor(@Optional() redis?: RedisStatus) {
    new Gauge({
      name: 'dynamic_action_redis_up',
      help: '1 while the Redis of REDIS_URL answers; 0 while it is down or not answering; -1 when no REDIS_URL is configured',
      registers: [this.registry],
      collect() {
        const state = redis?.state() ?? 'disabled';
        // Not configured is its own value: an alert on `== 0` fires only for a Redis that is out.
        this.set(state === 'up' ? 1 : state === 'down' ? 0 : -1);
      },
    });
    const lookups = (result: CacheLookupResult): CounterChild => {
      const child = this.cacheLookups.labels(result);
      child.inc(0); // exported from the start, so a rate over it has a beginning
      return child;
    };
    this.cacheResults = {
      hit: lookups('hit'),
      miss: lookups('miss'),
      coalesced: lookups('coalesced'),
      error: lookups('error'),
    };
  }

  /** A route's series, made on first use; callers keep it (RequestObserver makes them at boot). */
  route(action: string, mode: string): RouteMetrics {
    const key = `${mode} ${action}`;
    let route = this.routes.get(key);
    if (!route) {
      // Every declared action has its histogram from the start, requests or not.
      this.requestSeconds.zero({ action, mode });
      const duration = this.requestSeconds.labels(action, mode);
      route = new RouteMetrics(this.requests, duration, action, mode);
      this.routes.set(key, route);
    }
    return route;
  }

  upstream(name: string): UpstreamMetrics {
    let upstream = this.upstreams.get(name);
    if (!upstream) {
      upstream = new UpstreamMetrics(this.upstreamCalls, this.upstreamSeconds.labels(name), name);
      this.upstreams.set(name, upstream);
    }
    return upstream;
  }

  requestStarted(): void {
    this.inFlightCount += 1;
  }

  requestEnded(): void {
    this.inFlightCount -= 1;
  }

  rateLimited(action: string, limit: string): void {
    this.rateLimitedTotal.labels(action, limit).inc();
  }

  /** Counted on most requests: the children are kept, as a route's are (labels() hashes). */
  userRequest(action: string, level: 'claimed' | 'siwe'): void {
    let children = this.userLevels.get(action);
    if (!children) this.userLevels.set(action, (children = {}));
    (children[level] ??= this.userRequests.labels(action, level)).inc();
  }

  cacheLookup(result: CacheLookupResult): void {
    this.cacheResults[result].inc();
  }

  /** prom-client's process and Node.js metrics, once the registry is served. */
  collectProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }
}
