import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../../contract/action.exception';

/** `busy`: the host's slots and queue are full; `unavailable`: its circuit is open. */
export type RefusalReason = 'busy' | 'unavailable';

const TEXTS: Record<RefusalReason, { code: string; error: string; message: string }> = {
  busy: {
    code: 'UPSTREAM_BUSY',
    error: 'Too many calls are waiting for an external service',
    message: 'An external service is busy, please try again in a moment',
  },
  unavailable: {
    code: 'UPSTREAM_UNAVAILABLE',
    error: 'An external service keeps failing; calls to it are paused',
    message: 'An external service is unavailable, please try again later',
  },
};

/**
 * A call the service did not make: the upstream host is saturated or its circuit is open. It is
 * the user's answer as it stands (a 503 with a stable code, also in `data.code` for data-mode
 * clients), so services let it through rather than wrapping it as an upstream failure.
 */
export class UpstreamRefusal extends ActionException {
  constructor(
    /** Why the call was not made: tests and logs tell a full queue from an open circuit. */
    readonly reason: RefusalReason,
  ) {
    const { code, error, message } = TEXTS[reason];
    super(HttpStatus.SERVICE_UNAVAILABLE, error, { code, message, data: { code } });
  }
}

/** The refusal behind an error, for clients (viem) that wrap what the fetch function threw. */
export function findRefusal(error: unknown): UpstreamRefusal | undefined {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 16; depth += 1) {
    if (e instanceof UpstreamRefusal) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
