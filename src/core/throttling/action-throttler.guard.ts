import { type ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACTION_KEY } from '../action.decorator';
import type { ActionDeclaration } from '../action.types';
import { ActionException } from '../action.exception';

/** Per request, the tightest of the named limits, so the headers describe the one that binds. */
const tightest = new WeakMap<FastifyRequest, number>();

/**
 * The throttler for actions only (health, metadata and OPTIONS are never counted): keys are
 * `ratelimit:<scope>:<tracker>` plus the limit's name, the headers are the standard unsuffixed ones, and the 429
 * is an ActionException so it renders in the action's mode.
 */
@Injectable()
export class ActionThrottlerGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(
      !this.reflector.get<ActionDeclaration | undefined>(ACTION_KEY, context.getClass()),
    );
  }

  protected override async handleRequest({
    context,
    limit,
    ttl,
    throttler,
    blockDuration,
    getTracker,
    generateKey,
  }: ThrottlerRequest): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, throttler.name ?? 'default');
    const record = await this.storageService.increment(
      key,
      ttl,
      limit,
      blockDuration,
      throttler.name ?? 'default',
    );
    if (record.isBlocked) {
      void reply.header('retry-after', record.timeToBlockExpire);
      this.setLimitHeaders(req, reply, limit, 0, record.timeToBlockExpire);
      throw new ActionException(HttpStatus.TOO_MANY_REQUESTS, 'Too many requests', {
        message: `Too many requests, please try again in ${record.timeToBlockExpire} seconds`,
        code: 'RATE_LIMITED',
      });
    }
    this.setLimitHeaders(
      req,
      reply,
      limit,
      Math.max(0, limit - record.totalHits),
      record.timeToExpire,
    );
    return true;
  }

  private setLimitHeaders(
    req: FastifyRequest,
    reply: FastifyReply,
    limit: number,
    remaining: number,
    reset: number,
  ): void {
    const current = tightest.get(req);
    if (current !== undefined && current <= remaining) return;
    tightest.set(req, remaining);
    void reply.headers({
      'x-ratelimit-limit': limit,
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-reset': reset,
    });
  }
}
