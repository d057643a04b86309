import type { Type } from '@nestjs/common';
import type { ActionDeclaration } from '../contract/action.types';
import { ACTION_KEY } from '../kit/action.decorator';
import { payeeOf } from './action-price';

/** Nest's metadata key of a module's controllers (`@Module({ controllers })`). */
const CONTROLLERS = 'controllers';

/** The declarations of the action controllers a module declares. */
function declarationsOf(module: Type): ActionDeclaration[] {
  const controllers = (Reflect.getMetadata(CONTROLLERS, module) ?? []) as Type[];
  return controllers
    .map((controller) => Reflect.getMetadata(ACTION_KEY, controller) as ActionDeclaration)
    .filter(Boolean);
}

/**
 * The action modules this environment serves: one holding a paid action that nobody would be
 * paid for (no `payTo` of its own, no X402_PAY_TO) is left out, route, metadata and all, rather
 * than served for free.
 */
export function servedActionModules(
  modules: readonly Type[],
  env: Readonly<Record<string, string | undefined>>,
): Type[] {
  return modules.filter((module) =>
    declarationsOf(module).every(({ price }) => !price || payeeOf(price, env) !== undefined),
  );
}
