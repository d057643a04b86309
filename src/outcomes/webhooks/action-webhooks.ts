import type { DynamicModule, Type } from '@nestjs/common';
import { isURL } from '../../config/validator-subset';
import { ConfigError, type Env, httpUrlRule } from '../../config/env';
import { redactUrl } from '../../config/redact-url';
import type { ActionDeclaration, ActionWebhookTarget } from '../../contract/action.types';
import { ACTION_KEY } from '../../kit/action.decorator';
import { isWebhookSecret, MIN_WEBHOOK_SECRET_BYTES } from '../../config/webhook-secret';

/** Injection token of the ActionWebhooks. */
export const ACTION_WEBHOOKS = Symbol('ACTION_WEBHOOKS');

/** Each action's own webhook receiver, by the action's path: those this deployment configures. */
export type ActionWebhooks = ReadonlyMap<string, ActionWebhookTarget>;

/** A module as `imports` may hold it: a class, or a dynamic module around one. */
type ModuleEntry = Type | DynamicModule;

/** The module's controllers and imports, its decorator's and, when dynamic, its own. */
function partsOf(entry: ModuleEntry): { controllers: Type[]; imports: unknown[] } {
  const module = 'module' in entry ? entry.module : entry;
  const dynamic = 'module' in entry ? entry : undefined;
  return {
    controllers: [
      ...((Reflect.getMetadata('controllers', module) ?? []) as Type[]),
      ...(dynamic?.controllers ?? []),
    ],
    imports: [
      ...((Reflect.getMetadata('imports', module) ?? []) as unknown[]),
      ...(dynamic?.imports ?? []),
    ],
  };
}

const isModule = (value: unknown): value is ModuleEntry =>
  typeof value === 'function' ||
  (typeof value === 'object' &&
    value !== null &&
    typeof (value as DynamicModule).module === 'function');

/**
 * The declarations the action modules' controllers carry (theirs and those of the modules they
 * import), read as the app is composed, before Nest builds anything: whether any action has a
 * webhook decides if a delivery queue is needed.
 */
export function declarationsOf(modules: readonly ModuleEntry[]): ActionDeclaration[] {
  const found = new Map<string, ActionDeclaration>();
  const seen = new Set<unknown>();
  const visit = (entry: ModuleEntry): void => {
    if (seen.has(entry)) return;
    seen.add(entry);
    const { controllers, imports } = partsOf(entry);
    for (const controller of controllers) {
      const declaration = Reflect.getMetadata(ACTION_KEY, controller) as
        ActionDeclaration | undefined;
      if (declaration) found.set(declaration.path, declaration);
    }
    imports.filter(isModule).forEach(visit);
  };
  modules.forEach(visit);
  return [...found.values()];
}

/** Why a target cannot be posted to, or undefined: the rules WEBHOOK_URL and WEBHOOK_SECRET meet. */
function targetProblem(target: ActionWebhookTarget): string | undefined {
  const url = typeof target?.url === 'string' ? target.url : '';
  if (!isURL(url, { ...httpUrlRule, disallow_auth: true }))
    return `its URL (${url ? redactUrl(url) : 'none'}) must be http(s), without credentials`;
  if (!isWebhookSecret(target.secret))
    return `its secret must be whsec_ followed by the base64 of ${MIN_WEBHOOK_SECRET_BYTES} random bytes or more`;
  return undefined;
}

/**
 * The receivers of the actions' own webhooks, each read from its action's configuration
 * (`webhook.target(env)`); an action whose target is unset has none. A target its rules refuse
 * stops the boot, naming the action (never the secret).
 */
export function actionWebhooks(
  declarations: readonly ActionDeclaration[],
  env: Env,
): Map<string, ActionWebhookTarget> {
  const targets = new Map<string, ActionWebhookTarget>();
  const problems: string[] = [];
  for (const { path, webhook } of declarations) {
    if (typeof webhook?.target !== 'function') continue;
    const target = webhook.target(env);
    if (target === undefined) continue;
    const problem = targetProblem(target);
    if (problem) problems.push(`action ${path}: its webhook target: ${problem}`);
    else targets.set(path, { url: target.url, secret: target.secret });
  }
  if (problems.length > 0) throw new ConfigError(problems, 'action webhook configuration');
  return targets;
}
