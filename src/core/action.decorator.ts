import {
  applyDecorators,
  Controller,
  HttpCode,
  HttpStatus,
  Post,
  SetMetadata,
} from '@nestjs/common';
import type { ActionDeclaration } from './action.types';

export const ACTION_KEY = 'dynamic-action:declaration';

/** Typed identity: lets `<name>.action.ts` declare an action with its params class inferred. */
export function defineAction<P extends object>(
  declaration: ActionDeclaration<P>,
): ActionDeclaration<P> {
  return declaration;
}

/** Makes a controller serve one declared action: the route is the declaration's path. */
export function ActionController(declaration: ActionDeclaration): ClassDecorator {
  return applyDecorators(Controller(declaration.path), SetMetadata(ACTION_KEY, declaration));
}

/** The handler that runs the action: `POST <path>`, answering 200 unless it throws. */
export function RunAction(): MethodDecorator {
  return applyDecorators(Post(), HttpCode(HttpStatus.OK));
}
