import { Controller, Get, HttpStatus, Inject } from '@nestjs/common';
import { THROTTLE_CONFIG, type ThrottleConfig } from '../config/throttle.config';
import { AnyHost } from './edge/host-check.hook';
import { ActionException } from '../contract/action.exception';
import { RedisStatus } from '../telemetry/redis/redis.provider';

export interface DependencyReport {
  status: 'up' | 'down';
  /** Down, it makes the service not ready (Redis under RATE_LIMIT_ON_STORE_ERROR=deny). */
  required: boolean;
}

/** Each dependency the service is configured with, by name: Redis when REDIS_URL is set. */
export type Dependencies = Partial<Record<'redis', DependencyReport>>;

export interface Readiness {
  /** `degraded`: ready, but an optional dependency is down (Redis under `allow`). */
  status: 'ok' | 'degraded';
  dependencies: Dependencies;
}

/** A designed 503: rendered in the envelope like any error (with the dependencies), not logged. */
const notReady = (message: string, dependencies: Dependencies): ActionException =>
  new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Service unavailable', {
    message,
    code: 'SERVICE_UNAVAILABLE',
    data: { dependencies },
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
   * Reports each dependency. Not ready once shutdown has begun (the load balancer stops sending
   * while accepted requests finish), or while a required dependency is down (Redis under `deny`:
   * requests would be refused anyway).
   */
  @Get('ready')
  @AnyHost()
  ready(): Readiness {
    const dependencies = this.dependencies();
    if (this.shuttingDown) throw notReady('The service is shutting down', dependencies);
    const down = Object.values(dependencies).filter((d) => d.status === 'down');
    if (down.some((d) => d.required)) throw notReady('Redis is down', dependencies);
    return { status: down.length > 0 ? 'degraded' : 'ok', dependencies };
  }

  /** Called by GracefulShutdown on SIGTERM; there is no way back. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  private dependencies(): Dependencies {
    const redis = this.redis.state();
    if (redis === 'disabled') return {};
    return { redis: { status: redis, required: this.throttle.onStoreError === 'deny' } };
  }
}
