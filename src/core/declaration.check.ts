import type { ActionDeclaration, ActionParameter } from './action.types';
import { PARAM_TYPES } from './action.types';
import { getDeclaredParams } from './action-param.decorator';
import { checkMiniApps, type MiniAppCheckOptions } from './mini-app.check';
import { ICONS_ROUTE, MINI_APPS_ROUTE } from './mini-app';
import { patternProblem } from './text-pattern';

/** Paths the service answers itself: an action there would be shadowed or shadow them. */
const isReservedPath = (path: string): boolean =>
  ['/api/metadata', '/health', MINI_APPS_ROUTE, ICONS_ROUTE].some(
    (reserved) => path === reserved || path.startsWith(`${reserved}/`),
  );

const isChainId = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) > 0;

function checkParam(param: ActionParameter): string[] {
  const problems: string[] = [];
  const at = `parameter "${param.name}"`;
  if (!PARAM_TYPES.includes(param.type))
    problems.push(`${at} has unknown type "${String(param.type)}"`);
  if (!param.label) problems.push(`${at} has no label`);
  const hasOptions = (param.options?.length ?? 0) > 0;
  if ((param.type === 'select' || param.type === 'radio') && !hasOptions) {
    problems.push(`${at} is a ${param.type} without options`);
  }
  if (param.min !== undefined && param.max !== undefined && param.min > param.max) {
    problems.push(`${at} has min ${param.min} greater than max ${param.max}`);
  }
  if (param.step !== undefined && !(param.step > 0))
    problems.push(`${at} has a step that is not positive`);
  const patternIssue = param.pattern !== undefined ? patternProblem(param.pattern) : undefined;
  if (patternIssue) problems.push(`${at} ${patternIssue}`);
  const fallback = param.value;
  if (fallback !== undefined) {
    if (param.min !== undefined && typeof fallback === 'number' && fallback < param.min) {
      problems.push(`${at} has a default below its min`);
    }
    if (param.max !== undefined && typeof fallback === 'number' && fallback > param.max) {
      problems.push(`${at} has a default above its max`);
    }
    if (hasOptions && !param.options?.some((option) => option.value === fallback)) {
      problems.push(`${at} has a default that is not one of its options`);
    }
  }
  return problems;
}

/** Checks one declaration the way `createMetadata` would; returns every problem found. */
export function checkDeclaration(declaration: ActionDeclaration): string[] {
  const problems: string[] = [];
  if (!declaration.label?.trim()) problems.push('missing label');
  if (!declaration.path) problems.push('missing path');
  else if (!declaration.path.startsWith('/'))
    problems.push(`path "${declaration.path}" does not start with "/"`);
  else if (isReservedPath(declaration.path))
    problems.push(`path "${declaration.path}" is one the service answers itself`);
  if (!declaration.chains || !isChainId(declaration.chains.source)) {
    problems.push('chains.source must be a positive integer chain id');
  }
  if (declaration.chains?.destination !== undefined && !isChainId(declaration.chains.destination)) {
    problems.push('chains.destination must be a positive integer chain id');
  }
  if (declaration.responseType !== undefined && declaration.responseType !== 'data') {
    problems.push(`responseType "${String(declaration.responseType)}" is not "data"`);
  }
  const params = getDeclaredParams(declaration.params);
  const seen = new Set<string>();
  for (const param of params) {
    if (seen.has(param.name)) problems.push(`duplicate parameter name "${param.name}"`);
    seen.add(param.name);
    problems.push(...checkParam(param));
  }
  return problems;
}

/**
 * Checks all declarations together (paths must be unique) and, given the registered mini-apps,
 * how they group the actions; throws one error naming each action or mini-app and its problem.
 */
export function assertValidDeclarations(
  declarations: readonly ActionDeclaration[],
  grouping?: MiniAppCheckOptions,
): void {
  const problems: string[] = [];
  const paths = new Map<string, string>();
  for (const declaration of declarations) {
    const name = `action "${declaration.label || '(no label)'}" (${declaration.path || 'no path'})`;
    for (const problem of checkDeclaration(declaration)) problems.push(`${name}: ${problem}`);
    const other = paths.get(declaration.path);
    if (declaration.path && other !== undefined) {
      problems.push(`${name}: path already used by action "${other}"`);
    }
    paths.set(declaration.path, declaration.label);
  }
  if (grouping) problems.push(...checkMiniApps(declarations, grouping));
  if (problems.length > 0) {
    throw new Error(`Invalid action declarations:\n  - ${problems.join('\n  - ')}`);
  }
}
