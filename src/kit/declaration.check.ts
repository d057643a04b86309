import { validateSync } from '../config/validator-subset';
import { isAddress } from 'viem';
import type { ActionDeclaration, ActionParameter, ParamsClass } from '../contract/action.types';
import { getDeclaredParams } from './action-param.decorator';
import { convertParam } from './param-conversion';
import { kindOf, typeProblem } from './params';
import { checkMiniApps, type MiniAppCheckOptions } from './mini-app.check';
import { ICONS_ROUTE, MINI_APPS_ROUTE } from './mini-app';
import { checkSamples } from './sample.check';
import { isSenderDefault } from './sensitive-params';

/** Paths the service answers itself: an action there would be shadowed or shadow them. */
export const RESERVED_PATHS: readonly string[] = [
  '/api/metadata',
  '/api/openapi.json',
  // The transaction outcomes' report and read routes (src/outcomes).
  '/api/transactions',
  '/health',
  MINI_APPS_ROUTE,
  ICONS_ROUTE,
  '/debug',
  '/docs',
];

/** The reserved path an action's path would land on, if any. */
export const reservedPathOf = (path: string): string | undefined =>
  RESERVED_PATHS.find((reserved) => path === reserved || path.startsWith(`${reserved}/`));

const isChainId = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) > 0;

/** The first message the parameter's own rules give its declared default, if they refuse it. */
function defaultProblem(paramsClass: ParamsClass, param: ActionParameter): string | undefined {
  const probe = new paramsClass() as Record<string, unknown>;
  probe[param.name] = convertParam(param, param.value);
  const error = validateSync(probe, { stopAtFirstError: true, forbidUnknownValues: false }).find(
    (e) => e.property === param.name,
  );
  return error && Object.values(error.constraints ?? {})[0];
}

function checkParam(paramsClass: ParamsClass, param: ActionParameter): string[] {
  const at = `parameter "${param.name}"`;
  const typeIssue = typeProblem(param.type);
  const problems = param.label ? [] : ['has no label'];
  problems.push(...(typeIssue ? [typeIssue] : (kindOf(param.type)?.check(param) ?? [])));
  if (param.fixed !== undefined && typeof param.fixed !== 'boolean')
    problems.push('has a fixed that is not true or false');
  if (param.fixed && param.value === undefined && !typeIssue)
    problems.push('is fixed but has no value');
  // Type-specific checks name a default's problem their own way; otherwise the rules speak.
  const named = problems.some((p) => p.includes('default'));
  if (!typeIssue && !named && param.value !== undefined && !isSenderDefault(param)) {
    const refused = defaultProblem(paramsClass, param);
    if (refused)
      problems.push(
        `has a ${param.fixed ? 'fixed value' : 'default'} its rules refuse: ${refused}`,
      );
  }
  return problems.map((problem) => `${at} ${problem}`);
}

/** Decimal text of a positive amount, as a price is written (`0.01`). */
const PRICE_AMOUNT = /^(?=.*[1-9])\d+(\.\d+)?$/;

/**
 * A price's shape (src/payments checks its token against the chains at boot): only a data action
 * is paid for, its answer being what a payment buys (a transaction's user pays its gas anyway).
 */
function priceProblems({ price, responseType }: ActionDeclaration): string[] {
  if (price === undefined) return [];
  const problems: string[] = [];
  if (responseType !== 'data')
    problems.push('price is for data actions only (responseType "data")');
  if (typeof price.amount === 'string' && !PRICE_AMOUNT.test(price.amount)) {
    problems.push(`price.amount "${price.amount}" is not a positive decimal ("0.01")`);
  } else if (typeof price.amount !== 'string' && typeof price.amount !== 'function') {
    problems.push('price.amount must be decimal text or a function returning it');
  }
  if (typeof price.token !== 'string' || !price.token.trim()) {
    problems.push('price.token must name a token of the chain file (USDC)');
  }
  if (typeof price.payTo === 'string' && !isAddress(price.payTo)) {
    problems.push(`price.payTo "${price.payTo}" is not an EVM address`);
  }
  return problems;
}

/** Fields an action's webhook may carry: each a name of the answer's `params.args`. */
export const MAX_WEBHOOK_FIELDS = 16;

/** An action's own webhook: a transaction action's, with a target to read and named fields. */
function webhookProblems({ webhook, responseType }: ActionDeclaration): string[] {
  if (webhook === undefined) return [];
  const problems: string[] = [];
  if (responseType === 'data')
    problems.push('webhook: a data action answers no transaction, so it has no outcomes to post');
  if (typeof webhook?.target !== 'function')
    problems.push('webhook.target must be a function of the environment (its configuration)');
  const fields: unknown = webhook?.fields ?? [];
  const names = Array.isArray(fields) ? (fields as unknown[]) : [fields];
  if (!Array.isArray(fields) || names.some((name) => typeof name !== 'string' || !name.trim()))
    problems.push('webhook.fields must be names (non-empty text) of the answer’s params.args');
  else if (new Set(names).size !== names.length) problems.push('webhook.fields names one twice');
  else if (names.length > MAX_WEBHOOK_FIELDS)
    problems.push(`webhook.fields has ${names.length} names; at most ${MAX_WEBHOOK_FIELDS}`);
  return problems;
}

/** Checks one declaration the way `createMetadata` would; returns every problem found. */
export function checkDeclaration(declaration: ActionDeclaration): string[] {
  const problems: string[] = [];
  if (!declaration.label?.trim()) problems.push('missing label');
  if (!declaration.path) problems.push('missing path');
  else if (!declaration.path.startsWith('/'))
    problems.push(`path "${declaration.path}" does not start with "/"`);
  else if (reservedPathOf(declaration.path) !== undefined)
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
  problems.push(...priceProblems(declaration));
  if (declaration.dataSchema !== undefined && declaration.responseType !== 'data') {
    problems.push('has a dataSchema, which only a data action (responseType: "data") answers');
  }
  problems.push(...webhookProblems(declaration));
  const paramsClass = declaration.params;
  const seen = new Set<string>();
  for (const param of getDeclaredParams(paramsClass)) {
    if (seen.has(param.name)) problems.push(`duplicate parameter name "${param.name}"`);
    seen.add(param.name);
    if (paramsClass) problems.push(...checkParam(paramsClass, param));
  }
  // Samples are judged by parameters that are themselves sound.
  if (problems.length === 0) problems.push(...checkSamples(declaration));
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
