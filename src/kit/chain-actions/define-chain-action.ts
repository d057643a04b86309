import type { Abi } from 'viem';
import type {
  BlockchainAction,
  ChainAction,
  TransferAction,
} from '../../contract/chain-action.types';
import type { MiniAppDeclaration } from '../../contract/mini-app.types';

/**
 * Typed identity, like defineAction, for the platform's `blockchain` and `transfer` actions: the
 * ABI's literal type makes `functionName` one of its state-changing functions. A mini-app lists
 * the result in `chainActions`; the boot checks it against the platform's rules and the ABI.
 */
export function defineChainAction<const A extends Abi>(
  declaration: BlockchainAction<A>,
): BlockchainAction<A>;
export function defineChainAction(declaration: TransferAction): TransferAction;
export function defineChainAction(declaration: ChainAction): ChainAction {
  return declaration;
}

/** The mini-app's chain actions for this environment, in the order listed. */
export function resolveChainActions(
  miniApp: MiniAppDeclaration,
  env: Readonly<Record<string, string | undefined>>,
): ChainAction[] {
  return (miniApp.chainActions ?? [])
    .map((source) => (typeof source === 'function' ? source(env) : source))
    .filter((action): action is ChainAction => action !== undefined);
}

/** How boot errors name a chain action: `action "Tip the project" (transfer)`. */
export const chainActionName = (action: ChainAction): string =>
  `action "${action.label || '(no label)'}" (${String(action.type)})`;
