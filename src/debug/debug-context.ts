import { KNOWN_CHAINS } from '../evm/chains/known-chains';
import type { ActionRegistry } from '../kit/action.registry';
import type { ActionSample } from '../contract/action.types';
import { blinkName, blinkPath } from '../blinks/blink-catalogue';

/** What the page needs besides the published documents, which leave these out. */
export interface DebugContext {
  chains: { id: number; name: string }[];
  actions: Record<
    string,
    {
      samples: readonly ActionSample[];
      requiresUser: boolean;
      /** Where its blink's JSON is (src/blinks); undefined with BLINKS=off. */
      blink?: string;
    }
  >;
}

export function debugContext(registry: ActionRegistry, blinks: boolean): DebugContext {
  const actions: DebugContext['actions'] = {};
  for (const { path } of registry.actions()) {
    const declaration = registry.find(path);
    actions[path] = {
      samples: declaration?.samples ?? [],
      requiresUser: declaration?.requiresUser === true,
      ...(blinks && { blink: blinkPath(blinkName(path)) }),
    };
  }
  return {
    chains: KNOWN_CHAINS.map(({ id, displayName }) => ({ id, name: displayName })),
    actions,
  };
}
