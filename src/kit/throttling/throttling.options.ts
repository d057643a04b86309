import type { ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottleConfig } from '../../config/throttle.config';

/** The two named limits every action gets: per client IP, and per user address when one is sent. */
export function throttlerOptions(
  config: ThrottleConfig,
  storage: ThrottlerStorage,
): ThrottlerModuleOptions {
  return {
    storage,
    throttlers: [
      { name: 'ip', limit: config.ip.limit, ttl: config.ip.ttlSeconds * 1000 },
      { name: 'user', limit: config.user.limit, ttl: config.user.ttlSeconds * 1000 },
    ],
  };
}
