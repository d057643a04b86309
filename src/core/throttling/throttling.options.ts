import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import type { ThrottleConfig } from '../../config/throttle.config';
import { ACTION_KEY } from '../action.decorator';
import type { ActionDeclaration } from '../action.types';
import { readActionRequest } from '../action-request';

const reflector = new Reflector();

/** The acting user's checksummed address, so case variants share a bucket; none when absent or malformed. */
function userOf(context: ExecutionContext): string | undefined {
  try {
    return readActionRequest(context.switchToHttp().getRequest<FastifyRequest>()).context
      .userAddress;
  } catch {
    return undefined; // a malformed address is refused later by UserContextGuard; the IP limit still counts it
  }
}

/** Two named limits on every action: per client IP, and per user address when one is sent. */
export function throttlerOptions(
  config: ThrottleConfig,
  storage: ThrottlerStorage,
): ThrottlerModuleOptions {
  return {
    storage,
    throttlers: [
      { name: 'ip', limit: config.ip.limit, ttl: config.ip.ttlSeconds * 1000 },
      {
        name: 'user',
        limit: config.user.limit,
        ttl: config.user.ttlSeconds * 1000,
        skipIf: (context) => userOf(context) === undefined,
        getTracker: (_req, context) => userOf(context) ?? '',
      },
    ],
    // The storage appends the limit's name; the scope keeps one action from starving another.
    generateKey: (context, tracker) => {
      const declaration = reflector.get<ActionDeclaration>(ACTION_KEY, context.getClass());
      const scope = config.scope === 'global' ? '*' : declaration.path;
      return `ratelimit:${scope}:${tracker}`;
    },
  };
}
