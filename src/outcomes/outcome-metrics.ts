import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { ActionMetrics } from '../telemetry/metrics/action-metrics';
import type { IntentStatus, OutcomeEvent } from './outcome.types';

/**
 * The outcomes' Prometheus families, in the service's registry: transitions by action and the
 * status reached (the action label is a declared path: bounded), and how late the watcher looks
 * at an intent after it fell due.
 */
@Injectable()
export class OutcomeMetrics {
  private readonly transitions: Counter<'action' | 'status'>;
  private readonly lag: Histogram;
  private readonly lost: Counter<'reason'>;

  constructor(metrics: ActionMetrics) {
    this.transitions = new Counter({
      name: 'dynamic_action_intent_transitions_total',
      help: 'Transaction intents entering a status (answered, submitted, confirmed, …), or reorged after settling, by action',
      labelNames: ['action', 'status'],
      registers: [metrics.registry],
    });
    this.lag = new Histogram({
      name: 'dynamic_action_outcome_watcher_lag_seconds',
      help: 'How long after it fell due the expiry watcher looked at an intent',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [metrics.registry],
    });
    this.lost = new Counter({
      name: 'dynamic_action_intents_unrecorded_total',
      help: 'Transaction answers sent without an intent: the store failed or was out, or INTENT_MAX_OPEN were open',
      labelNames: ['reason'],
      registers: [metrics.registry],
    });
  }

  /** A transaction answer whose intent was not recorded: `store` (failed or out) or `full`. */
  unrecorded(reason: 'store' | 'full'): void {
    this.lost.labels(reason).inc();
  }

  /** An intent entering a status, or `reorged` (a settled one losing its block). */
  entered(action: string, status: IntentStatus | OutcomeEvent): void {
    this.transitions.labels(action, status).inc();
  }

  lagged(seconds: number): void {
    this.lag.observe(Math.max(0, seconds));
  }
}
