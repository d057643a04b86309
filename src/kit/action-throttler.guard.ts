import { type ExecutionContext, HttpStatus, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  normalizeIp,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { THROTTLE_CONFIG, type ThrottleConfig } from '../config/throttle.config';
import { ActionException } from '../contract/action.exception';
import { guardedRequest, type GuardedRouteSpec } from './guarded-route';
import { ActionMetrics } from '../telemetry/metrics/action-metrics';

interface ResolvedLimit {
  name: 'ip' | 'user';
  limit: number;
  ttl: number;
  scope: string;
}

type StoreRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** IP counts taken before the request's body was read (see countBeforeBody). */
const countedEarly = new WeakMap<IncomingMessage, StoreRecord>();

/** Whether the IP limit refused this request before its body was read: the body is left unparsed. */
export const refusedBeforeBody = (req: IncomingMessage): boolean =>
  countedEarly.get(req)?.isBlocked === true;

interface Outcome {
  limit: number;
  remaining: number;
  reset: number;
}

/**
 * Counts action requests (and guarded routes: guarded-route.ts) against the module's named limits (or the declaration's overrides),
 * per action endpoint unless RATE_LIMIT_SCOPE=global. Health, metadata and OPTIONS are never
 * counted. Limits are resolved once per action, so a request costs one store call per limit;
 * the answer carries the standard headers of the tightest limit, and a 429 renders in the
 * action's mode.
 */
@Injectable()
export class ActionThrottlerGuard extends ThrottlerGuard {
  private readonly resolved = new WeakMap<GuardedRouteSpec, ResolvedLimit[]>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(THROTTLE_CONFIG) private readonly config: ThrottleConfig,
    @Optional() private readonly metrics?: ActionMetrics,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const guarded = guardedRequest(context);
    if (!guarded) return true;
    const { limits: declaration, req } = guarded;
    const http = context.switchToHttp();
    let tightest: Outcome | undefined;
    for (const limit of this.limitsOf(declaration)) {
      const tracker = limit.name === 'ip' ? normalizeIp(req.ip) : guarded.user();
      if (tracker === undefined) continue;
      const early = limit.name === 'ip' ? countedEarly.get(req.raw) : undefined;
      const record = early ?? (await this.count(limit, tracker));
      if (record.isBlocked) {
        this.metrics?.rateLimited(declaration.path, limit.name);
        const retryAfter = record.timeToBlockExpire;
        setHeaders(
          http.getResponse<FastifyReply>(),
          { limit: limit.limit, remaining: 0, reset: retryAfter },
          retryAfter,
        );
        throw new ActionException(HttpStatus.TOO_MANY_REQUESTS, 'Too many requests', {
          message: `Too many requests, please try again in ${retryAfter} seconds`,
          code: 'RATE_LIMITED',
        });
      }
      const outcome = {
        limit: limit.limit,
        remaining: Math.max(0, limit.limit - record.totalHits),
        reset: record.timeToExpire,
      };
      if (!tightest || outcome.remaining < tightest.remaining) tightest = outcome;
    }
    if (tightest) setHeaders(http.getResponse<FastifyReply>(), tightest);
    return true;
  }

  /**
   * Counts the IP limit of a POST to an action before its body is read or parsed (KitModule
   * installs it as a `preParsing` hook): an over-limit client costs no JSON parse. The refusal
   * itself waits for canActivate, so the origin check still answers first (403 before 429).
   */
  async countBeforeBody(req: FastifyRequest, declaration: GuardedRouteSpec): Promise<void> {
    const limit = this.limitsOf(declaration).find((l) => l.name === 'ip');
    if (!limit) return;
    try {
      countedEarly.set(req.raw, await this.count(limit, normalizeIp(req.ip)));
    } catch {
      // The store failed: canActivate counts again and applies RATE_LIMIT_ON_STORE_ERROR.
    }
  }

  private count(limit: ResolvedLimit, tracker: string): Promise<StoreRecord> {
    const key = `ratelimit:${limit.scope}:${tracker}`;
    return this.storageService.increment(key, limit.ttl, limit.limit, limit.ttl, limit.name);
  }

  private limitsOf(declaration: GuardedRouteSpec): ResolvedLimit[] {
    let limits = this.resolved.get(declaration);
    if (!limits) {
      const scope = this.config.scope === 'global' ? '*' : declaration.path;
      limits = this.throttlers.map((throttler) => {
        const name = throttler.name as ResolvedLimit['name'];
        const override = declaration.rateLimit?.[name];
        return override
          ? { name, limit: override.limit, ttl: override.ttlSeconds * 1000, scope }
          : { name, limit: throttler.limit as number, ttl: throttler.ttl as number, scope };
      });
      this.resolved.set(declaration, limits);
    }
    return limits;
  }
}

function setHeaders(
  reply: FastifyReply,
  { limit, remaining, reset }: Outcome,
  retryAfter?: number,
): void {
  void reply.headers({
    'x-ratelimit-limit': limit,
    'x-ratelimit-remaining': remaining,
    'x-ratelimit-reset': reset,
    ...(retryAfter !== undefined && { 'retry-after': retryAfter }),
  });
}
