import type { ThrottleConfig } from '../config/throttle.config';
import { mapError } from '../contract/error-mapping';
import { HealthController } from './health.controller';
import type { RedisStatus } from '../telemetry/redis/redis.provider';

function controller(
  redis: 'up' | 'down' | 'disabled',
  onStoreError: ThrottleConfig['onStoreError'],
): HealthController {
  const status = { state: () => redis } as unknown as RedisStatus;
  return new HealthController(status, { onStoreError } as ThrottleConfig);
}

/** What the exception filter makes of the readiness refusal (it logs only errors with details). */
function refusal(health: HealthController): ReturnType<typeof mapError> {
  try {
    health.ready();
  } catch (thrown: unknown) {
    return mapError(thrown);
  }
  throw new Error('readiness did not refuse');
}

describe('HealthController readiness', () => {
  it('reports Redis only when it is configured', () => {
    expect(controller('disabled', 'allow').ready()).toEqual({ status: 'ok', dependencies: {} });
    expect(controller('up', 'deny').ready()).toEqual({
      status: 'ok',
      dependencies: { redis: { status: 'up', required: true } },
    });
  });

  it('is ready but degraded while Redis is down with `allow`', () => {
    expect(controller('down', 'allow').ready()).toEqual({
      status: 'degraded',
      dependencies: { redis: { status: 'down', required: false } },
    });
  });

  it('answers a designed 503 once shutdown has begun: shown in the envelope, not logged', () => {
    const health = controller('up', 'allow');
    health.markShuttingDown();
    expect(refusal(health)).toEqual({
      status: 503,
      error: 'Service unavailable',
      message: 'The service is shutting down',
      code: 'SERVICE_UNAVAILABLE',
      data: { dependencies: { redis: { status: 'up', required: false } } },
    });
    expect(health.live()).toEqual({ status: 'ok' });
  });

  it('answers a designed 503 while Redis is down with `deny`, not logged at every probe', () => {
    expect(refusal(controller('down', 'deny'))).toEqual({
      status: 503,
      error: 'Service unavailable',
      message: 'Redis is down',
      code: 'SERVICE_UNAVAILABLE',
      data: { dependencies: { redis: { status: 'down', required: true } } },
    });
  });
});
