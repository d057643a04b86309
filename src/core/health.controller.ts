import { Controller, Get, HttpStatus, Inject, ServiceUnavailableException } from '@nestjs/common';
import { THROTTLE_CONFIG, type ThrottleConfig } from '../config/throttle.config';
import { AnyHost } from './edge/host-check.hook';
import { RedisStatus } from './redis/redis.provider';

export interface Readiness {
  status: 'ok';
  redis: 'up' | 'down' | 'disabled';
}

/** Liveness for the container's HEALTHCHECK; readiness for a load balancer. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly redis: RedisStatus,
    @Inject(THROTTLE_CONFIG) private readonly throttle: ThrottleConfig,
  ) {}

  @Get()
  @AnyHost()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Not ready only when Redis is down and requests would be refused anyway (`deny`). */
  @Get('ready')
  @AnyHost()
  ready(): Readiness {
    const redis = this.redis.state();
    if (redis === 'down' && this.throttle.onStoreError === 'deny') {
      throw new ServiceUnavailableException({
        statusCode: HttpStatus.SERVICE_UNAVAILABLE,
        message: 'Redis is down',
      });
    }
    return { status: 'ok', redis };
  }
}
