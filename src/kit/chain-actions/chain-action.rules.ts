import { blockchainActionProblems } from './blockchain-action.rules';
import { transferActionProblems } from './transfer-action.rules';

/** The action kinds the client builds itself, which this service declares and publishes. */
export const CHAIN_ACTION_TYPES: readonly string[] = ['blockchain', 'transfer'];

const isChainId = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) > 0;

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
  if (typeof chains !== 'object' || chains === null || !isChainId(chains.source)) {
    problems.push(`${at}.chains.source is not a chain id`);
  } else if (chains.destination !== undefined && !isChainId(chains.destination)) {
    problems.push(`${at}.chains.destination is not a chain id`);
  }
  if (action.type === 'blockchain') problems.push(...blockchainActionProblems(action, at));
  else if (action.type === 'transfer') problems.push(...transferActionProblems(action, at));
  else problems.push(`${at}.type ${JSON.stringify(action.type)} is not blockchain or transfer`);
  return problems;
}
