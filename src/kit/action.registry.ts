import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { ACTION_KEY } from './action.decorator';
import type { ActionDeclaration, DynamicAction } from '../contract/action.types';
import { getDeclaredParams } from './action-param.decorator';
import { assertValidDeclarations } from './declaration.check';
import { publishedParam } from './params';
import { REGISTERED_MINI_APPS } from './mini-app';
import { miniAppsNamedBy } from './mini-app.check';
import { MiniAppIcons } from './mini-app-icons';
import type { MiniAppDeclaration } from '../contract/mini-app.types';
import type { ChainAction } from '../contract/chain-action.types';
import { ENV, type Env } from '../config/env';
import { resolveChainActions } from './chain-actions/define-chain-action';

/** A mini-app with its actions as the contract publishes them, in declaration order. */
export interface MiniAppGroup {
  miniApp: MiniAppDeclaration;
  actions: DynamicAction[];
  /** Its `blockchain` and `transfer` actions, resolved for this environment; no route here. */
  chainActions: ChainAction[];
}

/** The catalogue of declared actions and their mini-apps, found once at boot. */
@Injectable()
export class ActionRegistry {
  private readonly byPath = new Map<string, ActionDeclaration>();
  private readonly published: DynamicAction[];
  private readonly groups: MiniAppGroup[];

  /** Runs while the module graph is built, before routes exist, so a bad declaration (two
   * actions on one path, a mini-app of five actions included) stops the boot with the kit's
   * message, not Fastify's. */
  constructor(
    discovery: DiscoveryService,
    reflector: Reflector,
    icons: MiniAppIcons,
    @Inject(REGISTERED_MINI_APPS) registered: readonly MiniAppDeclaration[] | null,
    @Inject(ENV) env: Env,
  ) {
    const declarations = discovery
      .getControllers()
      .map(
        (wrapper) =>
          wrapper.metatype && reflector.get<ActionDeclaration>(ACTION_KEY, wrapper.metatype),
      )
      .filter((declaration): declaration is ActionDeclaration => Boolean(declaration));
    const miniApps = registered ?? miniAppsNamedBy(declarations);
    const chainActions = new Map(miniApps.map((m) => [m, resolveChainActions(m, env)]));
    assertValidDeclarations(declarations, {
      miniApps,
      iconExists: (file) => icons.get(file) !== undefined,
      chainActions: (miniApp) => chainActions.get(miniApp) ?? [],
    });
    for (const declaration of declarations) this.byPath.set(declaration.path, declaration);
    this.published = declarations.map(toDynamicAction);
    this.groups = miniApps
      .map((miniApp) => ({
        miniApp,
        // The platform's proxy cannot pay: a paid action is left out of the platform's documents.
        actions: this.published.filter(
          (_, i) => declarations[i].miniApp === miniApp && !declarations[i].price,
        ),
        chainActions: chainActions.get(miniApp) ?? [],
      }))
      // A mini-app of paid actions only has nothing the platform could run: no document.
      .filter((group) => group.actions.length + group.chainActions.length > 0);
  }

  find(path: string | undefined): ActionDeclaration | undefined {
    return path === undefined ? undefined : this.byPath.get(path);
  }

  /** Every declared action, as declared. */
  declarations(): ActionDeclaration[] {
    return [...this.byPath.values()];
  }

  /** Every action as the contract publishes it. */
  actions(): DynamicAction[] {
    return this.published;
  }

  /** Every mini-app, in registration order. */
  miniApps(): MiniAppGroup[] {
    return this.groups;
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
    ...(params.length > 0 && { params: params.map(publishedParam) }),
    ...(declaration.responseType !== undefined && { responseType: declaration.responseType }),
  };
}
