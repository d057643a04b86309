import {
  type CanActivate,
  type ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
} from '@nestjs/common';
import { normalizeIp, type ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { THROTTLE_CONFIG, type ThrottleConfig } from '../config/throttle.config';
import { ActionException } from '../contract/action.exception';
import { THROTTLER_STORE } from '../kit/throttling/throttler-storage.factory';

/**
 * `POST /debug/decode` decodes any transaction it is sent, at a cost in CPU: counted per client IP
 * against the action IP limit (RATE_LIMIT_IP_MAX per RATE_LIMIT_IP_WINDOW_SECONDS), in the
 * throttler's own store, under a key of its own. Over it, a 429 with Retry-After.
 */
@Injectable()
export class DecodeThrottleGuard implements CanActivate {
  constructor(
    @Inject(THROTTLER_STORE) private readonly storage: ThrottlerStorage,
    @Inject(THROTTLE_CONFIG) private readonly config: ThrottleConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const { limit, ttlSeconds } = this.config.ip;
    const ttl = ttlSeconds * 1000;
    const key = `ratelimit:debug-decode:${normalizeIp(http.getRequest<FastifyRequest>().ip)}`;
    const record = await this.storage.increment(key, ttl, limit, ttl, 'ip');
    if (!record.isBlocked) return true;
    void http.getResponse<FastifyReply>().header('retry-after', record.timeToBlockExpire);
    throw new ActionException(HttpStatus.TOO_MANY_REQUESTS, 'Too many requests', {
      message: `Too many requests, please try again in ${record.timeToBlockExpire} seconds`,
      code: 'RATE_LIMITED',
    });
  }
}
