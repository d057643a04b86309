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
import { INTENT_STORE, type IntentStore } from './intent-store';
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
 * told of each settled outcome once across replicas (the transition's claim in the intent store).
 * A hook that throws is logged and run again after a backoff that doubles, up to
 * OUTCOME_HOOK_ATTEMPTS times; nothing a hook does can stop the service.
 */
@Injectable()
export class OutcomeHooks implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('OutcomeHooks');
  private readonly hooks = new Map<string, Hook[]>();
  private readonly retries = new Set<NodeJS.Timeout>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly registry: ActionRegistry,
    @Inject(INTENT_STORE) private readonly store: IntentStore,
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

  /** Runs the hooks and the sink for an outcome whose transition this replica won. */
  async dispatch(outcome: TransactionOutcome): Promise<void> {
    const { intent, status } = outcome;
    // The transition's compare-and-set already makes this replica the only one; the mark keeps
    // it so even if a store were to replay a transition.
    if (!(await this.store.claimOnce(`${intent.id}:${status}`))) return;
    if (this.sink) {
      this.sink
        .deliver(outcome)
        .catch((error: unknown) => this.failed('the outcome sink', intent.id, error));
    }
    for (const hook of this.hooks.get(key(intent.action, status)) ?? [])
      this.attempt(hook, outcome, 1);
  }

  onApplicationShutdown(): void {
    for (const timer of this.retries) clearTimeout(timer);
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

  private attempt(hook: Hook, outcome: TransactionOutcome, attempt: number): void {
    const retry = (error: unknown): void => {
      this.failed(
        `hook ${hook.name} (attempt ${attempt} of ${this.config.hookAttempts})`,
        outcome.intent.id,
        error,
      );
      if (attempt >= this.config.hookAttempts) return;
      const timer = setTimeout(
        () => {
          this.retries.delete(timer);
          this.attempt(hook, outcome, attempt + 1);
        },
        this.config.hookBackoffMs * 2 ** (attempt - 1),
      );
      timer.unref();
      this.retries.add(timer);
    };
    try {
      Promise.resolve(hook.run(outcome)).catch(retry);
    } catch (error) {
      retry(error);
    }
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
