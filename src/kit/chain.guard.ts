import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ChainRegistry } from '../evm/chains/chain-registry';
import { ActionCall } from './action-call';
import { ActionRegistry } from './action.registry';

/**
 * Every action serves the chains it declares and no other: a request naming another is a 400
 * `UNSUPPORTED_CHAIN` before the handler runs, in both modes. At boot, an action declaring a
 * chain the configuration does not serve stops the start, naming each such action and chain.
 */
@Injectable()
export class ChainGuard implements CanActivate {
  constructor(
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
    const call = ActionCall.of(context);
    if (call) this.chains.assertServes(call.declaration, call.context);
    return true;
  }
}
