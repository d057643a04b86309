import {
  BrokenCircuitError,
  bulkhead,
  type BulkheadPolicy,
  circuitBreaker,
  type CircuitBreakerPolicy,
  CircuitState,
  ConsecutiveBreaker,
  handleWhen,
} from 'cockatiel';
import type { ExternalConfig } from '../../config/external.config';
import { isHostDownStatus, isHostFailure } from './upstream.error';
import { PostAnswer } from './upstream-post';

/**
 * A bulkhead of its own on a host, for calls of one kind that must never take the slots of the
 * others (sign-in's contract-wallet checks, which a stranger can make slow, beside the
 * simulations): its own concurrency and queue, and its own circuit.
 */
export interface Lane {
  /** Names the lane in the upstream's metrics label and its policy's key. */
  name: string;
  maxConcurrency: number;
  maxQueue: number;
}

/**
 * The bounds of one upstream host: a bulkhead (EXTERNAL_MAX_CONCURRENCY slots, EXTERNAL_MAX_QUEUE
 * waiting) around a circuit breaker that opens after EXTERNAL_CIRCUIT_THRESHOLD consecutive host
 * failures and lets one probe through after EXTERNAL_CIRCUIT_COOLDOWN_MS.
 *
 * The breaker sits inside the bulkhead: a refused or timed-out wait never counts against the
 * host, and a probe holds a slot like any call.
 */
export class HostPolicy {
  private readonly bulkhead: BulkheadPolicy;
  private readonly breaker: CircuitBreakerPolicy;

  constructor({ maxConcurrency, maxQueue, circuitThreshold, circuitCooldownMs }: ExternalConfig) {
    this.bulkhead = bulkhead(maxConcurrency, maxQueue);
    this.breaker = circuitBreaker(
      handleWhen(isHostFailure).orWhenResult(
        (answer) =>
          (answer instanceof Response || answer instanceof PostAnswer) &&
          isHostDownStatus(answer.status),
      ),
      { halfOpenAfter: circuitCooldownMs, breaker: new ConsecutiveBreaker(circuitThreshold) },
    );
  }

  /** Rejects with cockatiel's BulkheadRejectedError or BrokenCircuitError when it refuses. */
  execute<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    return this.bulkhead.execute(({ signal: slotSignal }) => {
      // While the probe is out, other calls are refused, not held until it settles (cockatiel's
      // default), so a dead host keeps costing nothing.
      if (this.breaker.state === CircuitState.HalfOpen) throw new BrokenCircuitError();
      return this.breaker.execute(({ signal: inner }) => call(inner), slotSignal);
    }, signal);
  }
}
