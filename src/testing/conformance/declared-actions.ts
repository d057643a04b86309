import type { INestApplication } from '@nestjs/common';
import { ActionRegistry } from '../../kit/action.registry';
import type { ActionDeclaration, DynamicAction } from '../../contract/action.types';

/** One registered action as a test suite needs it: what is published, and what is declared. */
export interface DeclaredAction {
  action: DynamicAction;
  declaration: ActionDeclaration;
  /** Declared `callsOutside: true`: a 5xx is its answer when the outside is unreachable. */
  callsOutside: boolean;
  requiresUser: boolean;
}

/**
 * Every action the app serves, read from its declarations: suites (fuzzing, conformance) learn
 * which actions call outside from here, never from a list of paths kept beside them.
 */
export function declaredActions(app: INestApplication): DeclaredAction[] {
  const registry = app.get(ActionRegistry);
  return registry.actions().map((action) => {
    const declaration = registry.find(action.path);
    if (!declaration) throw new Error(`${action.path} is published but not declared`);
    return {
      action,
      declaration,
      callsOutside: declaration.callsOutside === true,
      requiresUser: declaration.requiresUser === true,
    };
  });
}
