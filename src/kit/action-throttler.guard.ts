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
import { THROTTLE_CONFIG, type ThrottleConfig } from '../config/throttle.config';
import { ActionException } from '../contract/action.exception';
import { type GuardedRequest, guardedRequest, type GuardedRouteSpec } from './guarded-route';
import { userBeforeBody } from './action-request';
import { sessionChecks } from './verified-user';
import { countsNow, countsTogether, type LimitCount } from './throttling/store-abilities';
import { earlyCounts } from './throttling/early-counts';
import { ActionMetrics } from '../telemetry/metrics/action-metrics';
import { replyOf } from './http-args';

interface ResolvedLimit {
  name: 'ip' | 'user';
  limit: number;
  ttl: number;
  scope: string;
}

type StoreRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

const ALLOWED = Promise.resolve(true);
/** A store that failed before the body: canActivate counts again and applies RATE_LIMIT_ON_STORE_ERROR. */
const ignore = (): undefined => undefined;

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

  /** Without a promise of its own when every count is at hand (ALLOWED, shared, is settled). */
  override canActivate(context: ExecutionContext): Promise<boolean> {
    const guarded = guardedRequest(context);
    if (!guarded) return ALLOWED;
    const limits = this.limitsOf(guarded.limits);
    let tightest: Outcome | undefined;
    for (let i = 0; i < limits.length; i++) {
      const record = this.recordOf(guarded, limits[i]);
      if (record instanceof Promise) return this.settle(context, guarded, i, record, tightest);
      if (record) tightest = this.judge(context, guarded, limits[i], record, tightest);
    }
    if (tightest) setHeaders(replyOf(context), tightest);
    return ALLOWED;
  }

  /** canActivate from limit `from` on (its count `pending`), for a store of promises (Redis). */
  private async settle(
    context: ExecutionContext,
    guarded: GuardedRequest,
    from: number,
    pending: Promise<StoreRecord>,
    tightest: Outcome | undefined,
  ): Promise<boolean> {
    const limits = this.limitsOf(guarded.limits);
    for (let i = from; i < limits.length; i++) {
      const record = await (i === from ? pending : this.recordOf(guarded, limits[i]));
      if (record) tightest = this.judge(context, guarded, limits[i], record, tightest);
    }
    if (tightest) setHeaders(replyOf(context), tightest);
    return true;
  }

  /** The count of one limit: taken before the body for the IP, else now; none without a user. */
  private recordOf(
    guarded: GuardedRequest,
    limit: ResolvedLimit,
  ): StoreRecord | Promise<StoreRecord> | undefined {
    const { req } = guarded;
    if (limit.name === 'ip') {
      return earlyCounts.ip(req.raw) ?? this.count(limit, normalizeIp(req.ip));
    }
    const user = guarded.user();
    if (user === undefined) return undefined;
    return earlyCounts.user(req.raw, user) ?? this.count(limit, user);
  }

  /** Refuses a blocked count with 429; otherwise the tighter of it and `tightest`. */
  private judge(
    context: ExecutionContext,
    { limits: declaration }: GuardedRequest,
    limit: ResolvedLimit,
    record: StoreRecord,
    tightest: Outcome | undefined,
  ): Outcome {
    if (record.isBlocked) {
      this.metrics?.rateLimited(declaration.path, limit.name);
      const retryAfter = record.timeToBlockExpire;
      setHeaders(
        replyOf(context),
        { limit: limit.limit, remaining: 0, reset: retryAfter },
        retryAfter,
      );
      throw new ActionException(HttpStatus.TOO_MANY_REQUESTS, 'Too many requests', {
        message: `Too many requests, please try again in ${retryAfter} seconds`,
        code: 'RATE_LIMITED',
      });
    }
    const remaining = Math.max(0, limit.limit - record.totalHits);
    if (tightest && tightest.remaining <= remaining) return tightest;
    return { limit: limit.limit, remaining, reset: record.timeToExpire };
  }

  /**
   * Counts the IP limit of a POST to an action before its body is read or parsed (KitModule
   * installs it as a `preParsing` hook): an over-limit client costs no JSON parse. With a store
   * that counts several limits in one call (Redis), the user limit is counted in the same call
   * when the headers or the query name the user (the body cannot override them). The refusal
   * itself waits for canActivate, so the origin check still answers first (403 before 429).
   * Returns a promise only when the store answers with one.
   */
  countBeforeBody(req: FastifyRequest, declaration: GuardedRouteSpec): Promise<void> | undefined {
    const limits = this.limitsOf(declaration);
    const ip = limits.find((l) => l.name === 'ip');
    const store = this.storageService;
    const userLimit = countsTogether(store) ? limits.find((l) => l.name === 'user') : undefined;
    // A verified user (the session was checked just before) is counted whatever the headers say.
    const user = userLimit && (sessionChecks.user(req.raw)?.address ?? userBeforeBody(req)?.user);
    const raw = req.raw;
    try {
      if (user && userLimit && countsTogether(store)) {
        const counts = [this.countOf(userLimit, user)];
        if (ip) counts.push(this.countOf(ip, normalizeIp(req.ip)));
        return store.incrementAll(counts).then(([userRecord, ipRecord]) => {
          earlyCounts.keepUser(raw, user, userRecord);
          if (ipRecord) earlyCounts.keepIp(raw, ipRecord);
        }, ignore);
      }
      if (!ip) return undefined;
      const record = this.count(ip, normalizeIp(req.ip));
      if (!(record instanceof Promise)) {
        earlyCounts.keepIp(raw, record);
        return undefined;
      }
      return record.then((counted) => earlyCounts.keepIp(raw, counted), ignore);
    } catch {
      return undefined;
    }
  }

  /** A limit's count for a store that counts several together (Redis, before the body). */
  private countOf(limit: ResolvedLimit, tracker: string): LimitCount {
    const key = keyOf(limit, tracker);
    return { key, ttl: limit.ttl, limit: limit.limit, blockDuration: limit.ttl, name: limit.name };
  }

  private count(limit: ResolvedLimit, tracker: string): StoreRecord | Promise<StoreRecord> {
    const key = keyOf(limit, tracker);
    const store = this.storageService;
    return countsNow(store)
      ? store.incrementNow(key, limit.ttl, limit.limit, limit.ttl, limit.name)
      : store.increment(key, limit.ttl, limit.limit, limit.ttl, limit.name);
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

/** The counter's key of a limit and a tracker (an IP or a user). */
const keyOf = (limit: ResolvedLimit, tracker: string): string =>
  `ratelimit:${limit.scope}:${tracker}`;

/** On Node's response, as app.setup's stampHeaders: set once, checked once. */
function setHeaders(
  reply: FastifyReply,
  { limit, remaining, reset }: Outcome,
  retryAfter?: number,
): void {
  const raw = reply.raw;
  raw.setHeader('x-ratelimit-limit', limit);
  raw.setHeader('x-ratelimit-remaining', remaining);
  raw.setHeader('x-ratelimit-reset', reset);
  if (retryAfter !== undefined) raw.setHeader('retry-after', retryAfter);
}
