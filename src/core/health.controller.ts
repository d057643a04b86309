import { Controller, Get, HttpStatus, Inject } from '@nestjs/common';
import { THROTTLE_CONFIG, type ThrottleConfig } from '../config/throttle.config';
import { AnyHost } from './edge/host-check.hook';
import { ActionException } from './action.exception';
import { RedisStatus } from './redis/redis.provider';

export interface Readiness {
  status: 'ok';
  redis: 'up' | 'down' | 'disabled';
}

/** A designed 503: rendered in the envelope like any error, but not logged as a failure. */
const notReady = (message: string): ActionException =>
  new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Service unavailable', {
    message,
    code: 'SERVICE_UNAVAILABLE',
  });

/** Liveness for the container's HEALTHCHECK; readiness for a load balancer. */
@Controller('health')
export class HealthController {
  private shuttingDown = false;

  constructor(
    private readonly redis: RedisStatus,
    @Inject(THROTTLE_CONFIG) private readonly throttle: ThrottleConfig,
  ) {}

  @Get()
  @AnyHost()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Not ready once shutdown has begun (the load balancer stops sending while accepted requests
   * finish), or while Redis is down and requests would be refused anyway (`deny`).
   */
  @Get('ready')
  @AnyHost()
  ready(): Readiness {
    if (this.shuttingDown) throw notReady('The service is shutting down');
    const redis = this.redis.state();
    if (redis === 'down' && this.throttle.onStoreError === 'deny') {
      throw notReady('Redis is down');
    }
    return { status: 'ok', redis };
  }

  /** Called by GracefulShutdown on SIGTERM; there is no way back. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }
}
