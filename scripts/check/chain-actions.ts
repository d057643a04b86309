import {
  CHAIN_ACTION_TYPES,
  chainActionProblems,
} from '../../src/kit/chain-actions/chain-action.rules';
import type { Row } from './rows';

type Json = Record<string, unknown>;

const coins = (value: unknown): string => `${String(value)} coin${value === 1 ? '' : 's'}`;

/** What a chain action does, in a line: the call or the transfer, fixed or chosen parts named. */
function describe(action: Json): string {
  const chain = `chain ${String((action.chains as Json | undefined)?.source)}`;
  if (action.type === 'blockchain') {
    const value = action.amount === undefined ? '' : ` with ${coins(action.amount)}`;
    return `${String(action.functionName)} on ${String(action.address)}${value}, ${chain}`;
  }
  const to = typeof action.to === 'string' ? action.to : 'a recipient the user chooses';
  const options = ((action.amountConfig as Json | undefined)?.options ?? []) as Json[];
  const amount =
    action.amount !== undefined
      ? coins(action.amount)
      : options.length > 0
        ? `${options.map((o) => String(o.value)).join(' / ')} (the user picks)`
        : 'an amount the user enters';
  return `${amount} to ${to}, ${chain}`;
}

/**
 * One row per `blockchain` or `transfer` action of a mini-app document: the platform's rules on
 * it (kit/chain-actions, as at boot) and what it sends. Its client builds these itself, so there
 * is no route of the deployment to call.
 */
export function chainActionRows(documentPath: string, actions: readonly Json[]): Row[] {
  return actions.flatMap((action, index): Row[] => {
    if (typeof action.type !== 'string' || !CHAIN_ACTION_TYPES.includes(action.type)) return [];
    const problems = chainActionProblems(action, `actions[${index}]`);
    const name = `${action.type} "${String(action.label)}"`;
    return [
      {
        what: 'chain action',
        target: `${documentPath} actions[${index}]`,
        result: problems.length === 0 ? 'PASS' : 'FAIL',
        detail:
          problems.length === 0
            ? `${name}: ${describe(action)}; built by the platform's client, no route to call`
            : `${name}: ${problems.join('; ')}`,
      },
    ];
  });
}
