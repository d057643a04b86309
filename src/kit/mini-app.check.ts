import { isPublishableUrl, MAX_PUBLISHED_URL_LENGTH } from '../config/mini-apps.config';
import type { ActionDeclaration } from '../contract/action.types';
import { DEFAULT_MINI_APP_ICON, isIconUrl, MINI_APP_ID, MINI_APP_LIMITS } from './mini-app';
import type { MiniAppDeclaration } from '../contract/mini-app.types';
import type { ChainAction } from '../contract/chain-action.types';
import { chainActionProblems } from './chain-actions/chain-action.rules';
import { chainActionName } from './chain-actions/define-chain-action';

const MAX_ID_LENGTH = 64;

/** What the grouping checks need besides the declarations. */
export interface MiniAppCheckOptions {
  /** Every registered mini-app: actions may name only these. */
  miniApps: readonly MiniAppDeclaration[];
  /** Whether a file of src/assets/icons exists (and is an image the service serves). */
  iconExists: (file: string) => boolean;
  /** A mini-app's chain actions as resolved at boot (none when absent). */
  chainActions?: (miniApp: MiniAppDeclaration) => readonly ChainAction[];
}

function textProblem(value: unknown, field: string, max: number): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return `has no ${field}`;
  return value.length > max
    ? `${field} is ${value.length} characters long, over the platform's ${max}`
    : undefined;
}

/** One mini-app's own fields, against the platform's limits. */
export function checkMiniApp(
  miniApp: MiniAppDeclaration,
  iconExists: (file: string) => boolean,
): string[] {
  const problems: string[] = [];
  const { id, title, description, icon = DEFAULT_MINI_APP_ICON } = miniApp;
  if (typeof id !== 'string' || !MINI_APP_ID.test(id) || id.length > MAX_ID_LENGTH) {
    problems.push(
      `id must be lower-case letters and digits in words joined by "-", at most ${MAX_ID_LENGTH} characters`,
    );
  } else if (id.endsWith('-icon')) {
    problems.push('id may not end in "-icon" (MINI_APP_<ID>_ICON_URL would be ambiguous)');
  }
  const titleIssue = textProblem(title, 'title', MINI_APP_LIMITS.title);
  if (titleIssue) problems.push(titleIssue);
  const descriptionIssue = textProblem(description, 'description', MINI_APP_LIMITS.description);
  if (descriptionIssue) problems.push(descriptionIssue);
  if (isIconUrl(icon)) {
    if (!isPublishableUrl(icon)) {
      problems.push(
        `icon is not an absolute http(s) URL of at most ${MAX_PUBLISHED_URL_LENGTH} characters`,
      );
    }
  } else if (!iconExists(icon)) {
    problems.push(`icon "${icon}" is not an image of src/assets/icons (svg, png, webp, jpg)`);
  }
  return problems;
}

const actionName = (declaration: ActionDeclaration): string =>
  `action "${declaration.label || '(no label)'}" (${declaration.path || 'no path'})`;

/**
 * The grouping: every action names one registered mini-app; every mini-app has 1 to 4 actions
 * of every kind (dynamic and chain actions), each chain action passing the platform's rules,
 * and an id no other has. Problems name the mini-app or the action.
 */
export function checkMiniApps(
  declarations: readonly ActionDeclaration[],
  { miniApps, iconExists, chainActions = () => [] }: MiniAppCheckOptions,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const miniApp of miniApps) {
    const name = `mini-app "${String(miniApp.id)}"`;
    for (const problem of checkMiniApp(miniApp, iconExists)) problems.push(`${name}: ${problem}`);
    if (seen.has(miniApp.id)) problems.push(`${name}: another mini-app has the same id`);
    seen.add(miniApp.id);
  }
  for (const declaration of declarations) {
    const { miniApp } = declaration;
    if (!miniApp) problems.push(`${actionName(declaration)}: names no mini-app (set miniApp)`);
    else if (!miniApps.includes(miniApp)) {
      problems.push(
        `${actionName(declaration)}: names mini-app "${String(miniApp.id)}", which is not registered`,
      );
    }
  }
  for (const miniApp of miniApps) {
    const chain = chainActions(miniApp);
    const paths = [
      // A paid action is not in the platform's documents (the proxy cannot pay): not counted.
      ...declarations.filter((d) => d.miniApp === miniApp && !d.price).map((d) => d.path),
      ...chain.map(chainActionName),
    ];
    const name = `mini-app "${String(miniApp.id)}"`;
    // One whose actions are all paid has no document (MiniAppGroup): not a problem.
    const paid = declarations.some((d) => d.miniApp === miniApp && d.price);
    if (paths.length === 0 && !paid) problems.push(`${name}: has no action`);
    if (paths.length > MINI_APP_LIMITS.actions) {
      problems.push(
        `${name}: has ${paths.length} actions (${paths.join(', ')}), the platform allows at most ${MINI_APP_LIMITS.actions}`,
      );
    }
    for (const action of chain) {
      const at = `${name} ${chainActionName(action)}`;
      problems.push(...chainActionProblems(action as unknown as Record<string, unknown>, at));
    }
  }
  return problems;
}

/** The mini-apps the actions name, each once, in the order first named. */
export function miniAppsNamedBy(declarations: readonly ActionDeclaration[]): MiniAppDeclaration[] {
  return [...new Set(declarations.map((d) => d.miniApp).filter(Boolean))];
}
