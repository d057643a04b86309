import { KNOWN_CHAINS } from '../evm/chains/known-chains';
import type { ActionRegistry } from '../kit/action.registry';
import type { ActionSample } from '../contract/action.types';

/** What the page needs besides the published documents, which leave these out. */
export interface DebugContext {
  chains: { id: number; name: string }[];
  actions: Record<string, { samples: readonly ActionSample[]; requiresUser: boolean }>;
}

export function debugContext(registry: ActionRegistry): DebugContext {
  const actions: DebugContext['actions'] = {};
  for (const { path } of registry.actions()) {
    const declaration = registry.find(path);
    actions[path] = {
      samples: declaration?.samples ?? [],
      requiresUser: declaration?.requiresUser === true,
    };
  }
  return {
    chains: KNOWN_CHAINS.map(({ id, displayName }) => ({ id, name: displayName })),
    actions,
  };
}
