import type { MiniAppGroup } from '../kit/action.registry';
import { checkPlatformMetadata } from './platform-metadata';

/** A base URL for checking documents at boot when PUBLIC_BASE_URL is unset (requests give theirs). */
const PLACEHOLDER_BASE = 'https://mini-apps.example';

/**
 * What the platform's `createMetadata` would refuse in the documents the service is about to
 * publish, found at boot with the rule set the conformance kit, `/debug` and `npm run check` use.
 * Each problem names the action (label and path) in place of the document's `actions[i]`.
 */
export function platformBootProblems(
  groups: readonly MiniAppGroup[],
  documentOf: (group: MiniAppGroup, baseUrl: string) => unknown,
  baseUrl = PLACEHOLDER_BASE,
): string[] {
  const problems: string[] = [];
  for (const group of groups) {
    for (const problem of checkPlatformMetadata(documentOf(group, baseUrl))) {
      const at = /^actions\[(\d+)\](?:\.params\[\d+\])?:? ?/.exec(problem);
      const action = at ? group.actions[Number(at[1])] : undefined;
      problems.push(
        action
          ? `action "${action.label}" (${action.path}): ${problem.slice(at![0].length).replace(/^\./, '')}`
          : `mini-app "${group.miniApp.id}": ${problem}`,
      );
    }
  }
  return problems;
}
