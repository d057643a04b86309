import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import { INTENT_STORE, type IntentStore } from './intent-store';
import { IntentsService } from './intents.service';
import { OutcomeMetrics } from './outcome-metrics';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';
import { FOLLOWER_CONFIG, type FollowerConfig } from '../follower/follower.config';

/**
 * Expires what the chain never settled: every OUTCOME_POLL_MS it takes the open intents whose
 * INTENT_TTL_S ran out, at most OUTCOME_POLL_CONCURRENCY at a time, and moves each to `expired`.
 * It makes no chain call (the follower sees the chain). Each taken intent is leased in the store,
 * so the watchers of several replicas share one schedule without repeating each other's work.
 */
@Injectable()
export class OutcomeWatcher implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('OutcomeWatcher');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(INTENT_STORE) private readonly store: IntentStore,
    @Inject(OUTCOMES_CONFIG) private readonly config: OutcomesConfig,
    @Inject(FOLLOWER_CONFIG) private readonly following: FollowerConfig,
    private readonly intents: IntentsService,
    private readonly metrics: OutcomeMetrics,
  ) {}

  onModuleInit(): void {
    this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: what is due now, in bounded batches. Exposed for tests that drive it. */
  async tick(): Promise<void> {
    const { concurrency } = this.config;
    const { pollMs } = this.following;
    for (;;) {
      if (this.stopped) return;
      const now = Date.now();
      // Leased for a few polls: a replica that dies mid-check leaves the intent due again soon.
      const due = await this.store.claimDue(now, now + pollMs * 5, concurrency);
      if (due.length === 0) return;
      await Promise.all(
        due.map(async ({ id, dueAt }) => {
          this.metrics.lagged((now - dueAt) / 1000);
          await this.intents.expireIfDue(id).catch((error: unknown) => {
            limitLog(this.logger).warn(
              'check',
              `Intent ${id} could not be checked: ${logText(String(error))}`,
            );
          });
        }),
      );
      if (due.length < concurrency) return;
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((error: unknown) => {
          limitLog(this.logger).warn(
            'tick',
            `The watcher's pass failed: ${logText(String(error))}`,
          );
        })
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.following.pollMs);
    this.timer.unref();
  }
}
