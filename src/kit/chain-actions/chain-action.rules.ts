import { blockchainActionProblems } from './blockchain-action.rules';
import { transferActionProblems } from './transfer-action.rules';

/** The action kinds the client builds itself, which this service declares and publishes. */
export const CHAIN_ACTION_TYPES: readonly string[] = ['blockchain', 'transfer'];

/**
 * The chains the SDK's blockchain and transfer validators take (sherry-sdk 2.27.24-beta.1,
 * VALID_CHAIN_IDS of src/interface/chains.ts): any other id refuses the whole document, where a
 * dynamic action is only asked for a number. The local chain (31337) is not among them: chain
 * actions declare the chain the dev chain passes for (43113).
 */
export const PLATFORM_CHAIN_IDS: readonly number[] = [
  1, 11155111, 43114, 43113, 42220, 44787, 5000, 5003, 8453, 84532, 3278,
];

/** Why a chain action's chain id is one the platform refuses; undefined when it takes it. */
function chainIdProblem(value: unknown, field: string): string | undefined {
  if (!Number.isSafeInteger(value) || (value as number) <= 0) return `${field} is not a chain id`;
  return PLATFORM_CHAIN_IDS.includes(value as number)
    ? undefined
    : `${field} ${String(value)} is not a chain the platform supports (${PLATFORM_CHAIN_IDS.join(', ')})`;
}

/**
 * The platform's rules on one published `blockchain` or `transfer` entry of `actions`, with the
 * kit's own (checksummed addresses, exact amounts): one implementation for the boot check, the
 * document check (checkPlatformMetadata), /debug and `npm run check`. `at` prefixes each problem.
 */
export function chainActionProblems(action: Record<string, unknown>, at: string): string[] {
  const problems: string[] = [];
  if (typeof action.label !== 'string' || action.label.trim() === '') {
    problems.push(`${at}.label is missing or empty`);
  }
  if (action.description !== undefined && typeof action.description !== 'string') {
    problems.push(`${at}.description is not text`);
  }
  const chains = action.chains as Record<string, unknown> | undefined;
  if (typeof chains !== 'object' || chains === null) {
    problems.push(`${at}.chains.source is not a chain id`);
  } else {
    const source = chainIdProblem(chains.source, `${at}.chains.source`);
    const destination =
      chains.destination === undefined
        ? undefined
        : chainIdProblem(chains.destination, `${at}.chains.destination`);
    problems.push(...[source, destination].filter((p): p is string => p !== undefined));
  }
  if (action.type === 'blockchain') problems.push(...blockchainActionProblems(action, at));
  else if (action.type === 'transfer') problems.push(...transferActionProblems(action, at));
  else problems.push(`${at}.type ${JSON.stringify(action.type)} is not blockchain or transfer`);
  return problems;
}
