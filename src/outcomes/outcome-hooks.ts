import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ActionRegistry } from '../kit/action.registry';
import { logStack, logText } from '../telemetry/logging/log-text';
import {
  type OutcomeHandler,
  OUTCOME_HOOK_KEY,
  type OutcomeHookSpec,
} from './on-transaction-outcome.decorator';
import {
  OUTCOME_SINK,
  type OutcomeSink,
  type OutcomeEvent,
  type TransactionOutcome,
} from './outcome.types';
import { OUTCOMES_CONFIG, type OutcomesConfig } from './outcomes.config';

interface Hook {
  name: string;
  run: OutcomeHandler;
}

/**
 * The teams' @OnTransactionOutcome methods, found once at boot, and the OutcomeSink (webhooks):
 * told of each outcome from the outbox (OutboxRelay), at least once. A hook that throws is logged
 * and run again after a backoff that doubles, up to OUTCOME_HOOK_ATTEMPTS times; nothing a hook
 * does can stop the service.
 */
@Injectable()
export class OutcomeHooks implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('OutcomeHooks');
  private readonly hooks = new Map<string, Hook[]>();
  /** Backoffs waiting, and how to end each at shutdown. */
  private readonly retries = new Map<NodeJS.Timeout, () => void>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly registry: ActionRegistry,
    @Inject(OUTCOMES_CONFIG) private readonly config: OutcomesConfig,
    @Inject(APP_CONFIG) private readonly app: AppConfig,
    @Optional() @Inject(OUTCOME_SINK) private readonly sink?: OutcomeSink,
  ) {}

  /** Every provider's hook methods; one naming an action the app does not serve stops the boot. */
  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isNotMetatype) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = instance[method] as OutcomeHandler;
        const spec = this.reflector.get<OutcomeHookSpec | undefined>(OUTCOME_HOOK_KEY, handler);
        if (spec) this.add(`${wrapper.name}.${method}`, spec, handler.bind(instance));
      }
    }
  }

  /**
   * Delivers one outbox entry: the webhook queued (its job id the delivery id, so a second
   * enqueue is a no-op), then every hook of the action and event, each retried with backoff until
   * it succeeds or OUTCOME_HOOK_ATTEMPTS ran. Resolves once all that is done, so the relay may
   * remove the entry; rejects when the sink could not queue it (the entry stays, to be relayed
   * again). A hook may so run more than once (a replica that died mid-way): it gets the delivery
   * id to deduplicate with.
   */
  async dispatch(outcome: TransactionOutcome): Promise<void> {
    const { intent, status } = outcome;
    if (this.sink) await this.sink.deliver(outcome);
    await Promise.all(
      (this.hooks.get(key(intent.action, status)) ?? []).map((hook) => this.run(hook, outcome)),
    );
  }

  onApplicationShutdown(): void {
    for (const [timer, stop] of this.retries) {
      clearTimeout(timer);
      stop();
    }
    this.retries.clear();
  }

  private add(name: string, spec: OutcomeHookSpec, run: OutcomeHandler): void {
    const path = spec.action.path;
    const served = this.registry.find(path);
    if (!served || served.responseType === 'data') {
      throw new Error(
        `@OnTransactionOutcome on ${name} names ${path}, which is no transaction action this app serves (is its module imported?)`,
      );
    }
    for (const status of spec.statuses) {
      const list = this.hooks.get(key(path, status)) ?? [];
      list.push({ name, run });
      this.hooks.set(key(path, status), list);
    }
  }

  /** A hook's attempts: until one succeeds, OUTCOME_HOOK_ATTEMPTS ran, or the app stops. */
  private async run(hook: Hook, outcome: TransactionOutcome): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await hook.run(outcome);
        return;
      } catch (error) {
        this.failed(
          `hook ${hook.name} (attempt ${attempt} of ${this.config.hookAttempts})`,
          outcome.intent.id,
          error,
        );
      }
      if (attempt >= this.config.hookAttempts) return;
      await this.backoff(this.config.hookBackoffMs * 2 ** (attempt - 1));
    }
  }

  /** Waits `ms`, or rejects once the app shuts down (the entry stays in the outbox). */
  private backoff(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.retries.set(timer, () => reject(new Error('shutting down')));
    });
  }

  private failed(what: string, intent: string, error: unknown): void {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const stack = this.app.nodeEnv === 'development' ? logStack(error) : undefined;
    this.logger.warn(
      `${what} failed for intent ${intent}: ${logText(text)}`,
      ...(stack ? [stack] : []),
    );
  }
}

const key = (action: string, status: OutcomeEvent): string => `${status} ${action}`;
