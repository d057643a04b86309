import {
  applyDecorators,
  Controller,
  HttpCode,
  HttpStatus,
  Post,
  SetMetadata,
} from '@nestjs/common';
import type { ActionDeclaration, RequestContext, UserContext } from '../contract/action.types';

export const ACTION_KEY = 'dynamic-action:declaration';

/**
 * Typed identity: lets `<name>.action.ts` declare an action with its params class inferred, and
 * keeps `requiresUser: true` and `user: 'verified'` as literals so `ContextOf<typeof action>`
 * knows the user is there.
 */
export function defineAction<
  P extends object,
  U extends boolean = false,
  V extends 'verified' | undefined = undefined,
>(
  declaration: Omit<ActionDeclaration<P>, 'user'> & { requiresUser?: U; user?: V },
): Omit<ActionDeclaration<P>, 'user'> & { requiresUser?: U; user?: V } {
  return declaration;
}

/**
 * What `@ActionContext()` hands an action's handler: `UserContext` (the address typed as
 * present) when the declaration says `requiresUser: true` or `user: 'verified'`, as the
 * user-context guard enforces.
 */
export type ContextOf<D extends ActionDeclaration> = D extends { requiresUser?: true }
  ? UserContext
  : D extends { user?: infer V }
    ? [V] extends ['verified']
      ? UserContext
      : RequestContext
    : RequestContext;

/** Makes a controller serve one declared action: the route is the declaration's path. */
export function ActionController(declaration: ActionDeclaration): ClassDecorator {
  return applyDecorators(Controller(declaration.path), SetMetadata(ACTION_KEY, declaration));
}

/** The handler that runs the action: `POST <path>`, answering 200 unless it throws. */
export function RunAction(): MethodDecorator {
  return applyDecorators(Post(), HttpCode(HttpStatus.OK));
}
