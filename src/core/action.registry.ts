import { Injectable } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ACTION_KEY } from './action.decorator';
import type { ActionDeclaration, DynamicAction } from './action.types';
import { getDeclaredParams } from './action-param.decorator';
import { assertValidDeclarations } from './declaration.check';

/** The catalogue of declared actions, found once at boot from `@ActionController` classes. */
@Injectable()
export class ActionRegistry {
  private readonly byPath = new Map<string, ActionDeclaration>();
  private readonly published: DynamicAction[];

  /** Runs while the module graph is built, before routes exist, so a bad declaration (two
   * actions on one path included) stops the boot with the kit's message, not Fastify's. */
  constructor(discovery: DiscoveryService, reflector: Reflector) {
    const declarations = discovery
      .getControllers()
      .map(
        (wrapper) =>
          wrapper.metatype && reflector.get<ActionDeclaration>(ACTION_KEY, wrapper.metatype),
      )
      .filter((declaration): declaration is ActionDeclaration => Boolean(declaration));
    assertValidDeclarations(declarations);
    for (const declaration of declarations) this.byPath.set(declaration.path, declaration);
    this.published = declarations.map(toDynamicAction);
  }

  find(path: string | undefined): ActionDeclaration | undefined {
    return path === undefined ? undefined : this.byPath.get(path);
  }

  /** Every action as the contract publishes it. */
  actions(): DynamicAction[] {
    return this.published;
  }
}

export function toDynamicAction(declaration: ActionDeclaration): DynamicAction {
  const params = getDeclaredParams(declaration.params);
  return {
    type: 'dynamic',
    label: declaration.label,
    ...(declaration.description !== undefined && { description: declaration.description }),
    chains: declaration.chains,
    path: declaration.path,
    ...(params.length > 0 && { params }),
    ...(declaration.responseType !== undefined && { responseType: declaration.responseType }),
  };
}
