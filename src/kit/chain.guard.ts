import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ChainRegistry } from '../evm/chains/chain-registry';
import { ACTION_KEY } from './action.decorator';
import type { ActionDeclaration } from '../contract/action.types';
import { ActionRegistry } from './action.registry';
import { readActionRequest } from './action-request';

/**
 * Every action serves the chains it declares and no other: a request naming another is a 400
 * `UNSUPPORTED_CHAIN` before the handler runs, in both modes. At boot, an action declaring a
 * chain the configuration does not serve stops the start, naming each such action and chain.
 */
@Injectable()
export class ChainGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly chains: ChainRegistry,
    actions: ActionRegistry,
  ) {
    const problems = actions
      .actions()
      .flatMap((action) =>
        chains.missing(action).map((why) => `action "${action.label}" (${action.path}): ${why}`),
      );
    if (problems.length > 0) {
      throw new Error(
        `Actions declare chains the service does not serve (CHAIN_CONFIG_FILE):\n  - ${problems.join('\n  - ')}`,
      );
    }
  }

  canActivate(context: ExecutionContext): boolean {
    const declaration = this.reflector.get<ActionDeclaration | undefined>(
      ACTION_KEY,
      context.getClass(),
    );
    if (!declaration) return true;
    const request = readActionRequest(context.switchToHttp().getRequest<FastifyRequest>());
    this.chains.assertServes(declaration, request.context);
    return true;
  }
}
