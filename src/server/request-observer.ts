import { Inject, Injectable } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { ActionRegistry } from '../kit/action.registry';
import { ROOT_LOGGER } from '../telemetry/logging/logging.providers';
import { ActionMetrics, type RouteMetrics } from '../telemetry/metrics/action-metrics';
import {
  endRequestSpan,
  startRequestSpan,
  traceFields,
  withinSpan,
} from '../telemetry/tracing/request-span';
import { isTracingActive } from '../telemetry/tracing/tracing-state';
import { enterScope, type RequestScope, scopeOf } from '../telemetry/request-scope';
import type { EdgeAnswer, EdgeReplies, EdgeSource } from './edge/edge-reply';
import { levelOf, writeEdgeLine } from './edge/edge-access-line';

/** nginx's code for a request whose client left before its answer was written. */
const CLIENT_CLOSED = 499;

/** The health checks: logged at debug, never traced. */
const isProbe = (route: string | undefined): boolean =>
  route === '/health' || (route?.startsWith('/health/') ?? false);

interface RouteEntry {
  /** The declared path or route pattern; `unknown` when no route matched. */
  route: string;
  /** `data` or `transaction` when the request runs an action. */
  mode?: 'data' | 'transaction';
  /** Health checks are logged at debug, like CORS preflights. */
  quiet: boolean;
  metrics: RouteMetrics;
}

interface ObservedScope extends RequestScope {
  startedAt: number;
  /** The status of an answer the HTTP layer wrote instead (a 408 cutting a trickling body). */
  edgeStatus?: number;
  readonly req: FastifyRequest;
  readonly reply: FastifyReply;
}

/** Headers every answer carries, set by the first hook (see RequestObserver.install). */
export type StampHeaders = (req: FastifyRequest, reply: FastifyReply) => void;

/**
 * What the observer keeps on Node's objects, under symbols rather than in WeakMaps: a WeakMap
 * entry per request is an ephemeron the garbage collector must trace, and every lookup hashes.
 */
const OBSERVED = Symbol('observed');
const SERVING = Symbol('serving');
type ObservedResponse = ServerResponse & { [OBSERVED]?: ObservedScope };
type ServingSocket = Socket & { [SERVING]?: FastifyRequest };

/** One `close` listener for every response (`this` is the response), not a closure per request. */
function closeListener(end: (scope: ObservedScope) => void): (this: ServerResponse) => void {
  return function (this: ObservedResponse): void {
    const scope = this[OBSERVED];
    if (scope) end(scope);
  };
}

/**
 * What every request leaves behind, recorded once it ends: its access line, its metrics and its
 * span. Labels are made per route at boot, from the declarations (action label = declared path,
 * mode = the action's), so recording is a map lookup and a few additions. Requests no route
 * matched share the label `unknown`: a raw URL never becomes a label or a log field.
 */
@Injectable()
export class RequestObserver {
  private readonly actions = new Map<string, RouteEntry>();
  private readonly routes = new Map<string, RouteEntry>();
  private readonly unknown: RouteEntry;
  private readonly onClose = closeListener((scope) => this.end(scope));

  constructor(
    registry: ActionRegistry,
    private readonly metrics: ActionMetrics,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {
    for (const { path, responseType } of registry.actions()) {
      const mode = responseType === 'data' ? 'data' : 'transaction';
      const entry: RouteEntry = {
        route: path,
        mode,
        quiet: false,
        metrics: metrics.route(path, mode),
      };
      this.actions.set(path, entry);
    }
    this.unknown = { route: 'unknown', quiet: false, metrics: metrics.route('unknown', 'none') };
  }

  /**
   * Called once by setupApp. The adapter's own first hook runs this one, ahead of CORS preflights
   * and of the adapter's refusals, so every routed request is observed.
   */
  install(app: NestFastifyApplication, edge: EdgeReplies, stamp: StampHeaders): void {
    edge.observe({
      servedOn: (socket) => {
        const req = (socket as ServingSocket)[SERVING];
        return req && { req: req.raw, id: req.id };
      },
      refused: (answer, from) => this.refusedAtEdge(answer, from),
    });
    const tracing = isTracingActive();
    const adapter = app.getHttpAdapter();
    if (!(adapter instanceof FastifyAdapter)) throw new Error('RequestObserver needs Fastify');
    // The first hook also stamps the answer's own headers: set before the CORS hook that follows
    // answers preflights, they are on those answers too, and no later hook is needed for them.
    adapter.setOnRequestHook((req: FastifyRequest, reply: FastifyReply, done: () => void) => {
      stamp(req, reply);
      this.begin(req, reply, done, tracing);
    });
  }

  private begin(
    req: FastifyRequest,
    reply: FastifyReply,
    done: () => void,
    tracing: boolean,
  ): void {
    const scope: ObservedScope = { id: req.id, startedAt: performance.now(), req, reply };
    this.metrics.requestStarted();
    (req.raw.socket as ServingSocket)[SERVING] = req;
    (reply.raw as ObservedResponse)[OBSERVED] = scope;
    // `close` comes once for every response, answered or abandoned; onResponse misses the latter.
    reply.raw.on('close', this.onClose);
    // Probes every few seconds from every load balancer would drown the traces that matter.
    if (!tracing || isProbe(req.routeOptions.url)) return enterScope(req, this.logger, scope, done);
    const { span, context } = startRequestSpan(req);
    scope.span = span;
    withinSpan(context, () => enterScope(req, this.logger, scope, done));
  }

  private end(scope: ObservedScope): void {
    const { req, reply } = scope;
    this.metrics.requestEnded();
    const socket = req.raw.socket as ServingSocket | null;
    if (socket?.[SERVING] === req) socket[SERVING] = undefined;
    const durationMs = performance.now() - scope.startedAt;
    // Ended, not finished: an answer written to a client that left at that moment still counts.
    const aborted = !reply.raw.writableEnded && scope.edgeStatus === undefined;
    const status = scope.edgeStatus ?? (aborted ? CLIENT_CLOSED : reply.statusCode);
    const entry = this.entryFor(req);
    entry.metrics.record(status, durationMs / 1000);
    if (scope.span) {
      endRequestSpan(scope.span, req.method, {
        route: entry === this.unknown ? undefined : entry.route,
        mode: entry.mode,
        status,
        errorCode: scope.errorCode,
        aborted,
      });
    }
    const level = entry.quiet || req.method === 'OPTIONS' ? 'debug' : levelOf(status);
    if (!this.logger.isLevelEnabled(level)) return;
    const bytes = reply.getHeader('content-length');
    this.logger[level](
      {
        reqId: scope.id,
        method: req.method,
        route: entry.route,
        mode: entry.mode,
        status,
        durationMs: Math.round(durationMs * 1000) / 1000,
        bytes: bytes === undefined ? undefined : Number(bytes),
        ip: req.ip,
        errorCode: scope.errorCode,
        intent: scope.intent,
        user_verified: scope.userVerified,
        ...(scope.span && traceFields(scope.span)),
      },
      aborted
        ? 'request abandoned by the client'
        : scope.edgeStatus
          ? 'request cut short by the HTTP layer'
          : 'request completed',
    );
  }

  /**
   * An answer written before Fastify saw a request (a header overflow, a bad Content-Length, a
   * deadline, a declared body over the limit after `Expect: 100-continue`): one access line and
   * one count under `unknown`, like any unrouted request. Not timed: it never started.
   */
  private refusedAtEdge(answer: EdgeAnswer, { req, ip, reason }: EdgeSource): void {
    const served = req && (scopeOf(req) as ObservedScope | undefined);
    // A request already observed gets its own line, with its route, when its response closes.
    if (served) {
      served.edgeStatus = answer.status;
      return;
    }
    this.unknown.metrics.record(answer.status);
    writeEdgeLine(this.logger, answer, { req, ip, reason });
  }

  private entryFor(req: FastifyRequest): RouteEntry {
    const route = req.routeOptions.url;
    if (route === undefined || req.is404) return this.unknown;
    if (!route.includes('*')) {
      const action = req.method === 'POST' ? this.actions.get(route) : undefined;
      return action ?? this.named(route);
    }
    // A wildcard route (metadata's `GET *`, the CORS preflight's `OPTIONS *`) is named after the
    // action path it served; any other path it caught is `unknown`, never the path itself.
    const path = req.url.split('?', 1)[0];
    return this.actions.has(path) ? this.named(path) : this.unknown;
  }

  /** A route other than an action's run: the health checks, metadata, an action's GET… */
  private named(route: string): RouteEntry {
    let entry = this.routes.get(route);
    if (!entry) {
      // Bounded: routes and action paths are declared in code.
      const quiet = isProbe(route);
      entry = { route, quiet, metrics: this.metrics.route(route, 'none') };
      this.routes.set(route, entry);
    }
    return entry;
  }
}
