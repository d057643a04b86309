import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { ActionMetrics } from '../telemetry/metrics/action-metrics';

/**
 * How a call to a paid action ended, payment-wise: `required` (no payment: answered 402),
 * `invalid` (a payment that does not hold: malformed, refused by the facilitator, not the one
 * asked), `reused` (a payment already served: its nonce), `conflict` (a payment identifier
 * already used by another payment), `replayed` (a retry of a paid call: its answer again, not
 * charged), `settled` (paid and answered), `not_charged` (verified, but the action refused:
 * nothing settled), `settle_failed` (the settlement failed: nothing delivered), `unavailable`
 * (the facilitator or the store was out).
 */
export type PaymentOutcome =
  | 'required'
  | 'invalid'
  | 'reused'
  | 'conflict'
  | 'replayed'
  | 'settled'
  | 'not_charged'
  | 'settle_failed'
  | 'unavailable';

/** The payments' Prometheus family, in the service's registry; `action` is a declared path. */
@Injectable()
export class PaymentMetrics {
  private readonly payments: Counter<'action' | 'outcome'>;

  constructor(metrics: ActionMetrics) {
    this.payments = new Counter({
      name: 'dynamic_action_payments_total',
      help: 'Calls to paid actions (x402), by action and payment outcome: required, invalid, reused, conflict, replayed, settled, not_charged, settle_failed, unavailable',
      labelNames: ['action', 'outcome'],
      registers: [metrics.registry],
    });
  }

  /** A paid action's series start at 0, so a rate over them has a beginning. */
  declare(action: string): void {
    this.payments.labels(action, 'settled').inc(0);
    this.payments.labels(action, 'required').inc(0);
  }

  record(action: string, outcome: PaymentOutcome): void {
    this.payments.labels(action, outcome).inc();
  }
}
