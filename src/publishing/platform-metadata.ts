import { CHAIN_ACTION_TYPES, chainActionProblems } from '../kit/chain-actions/chain-action.rules';
import { dynamicActionProblems } from './platform-action';
import {
  isPlainObject,
  PLATFORM_ACTION_TYPES,
  PLATFORM_LIMITS,
  stringProblem,
  urlFieldProblem,
} from './platform-rules';

/**
 * Applies the rules of the platform's `createMetadata` to a metadata document (what a mini-app's
 * URL answers) and returns every problem found; an empty list means the platform accepts it.
 *
 * Rules: `url` and `icon` non-empty http(s) URLs of at most 2000 characters; `title` non-empty,
 * at most 1000; `description` non-empty, at most 2000; `actions` an array of 1 to 4 objects
 * whose `type` the platform knows; `baseUrl`, when present, an http(s) URL of at most 2000; a
 * dynamic action needs a label, a path that is an http(s) URL or starts with "/" (then baseUrl
 * is required), integer chain ids, and parameters with a name, label and type, select and radio
 * ones with distinct options, bounds in order and patterns that compile. `blockchain` and
 * `transfer` actions get the rules of kit/chain-actions; `http` and `flow` are reported unchecked.
 */
export function checkPlatformMetadata(document: unknown): string[] {
  if (!isPlainObject(document)) return ['the document is not a JSON object'];
  const problems: string[] = [];
  const add = (problem: string | undefined): void => {
    if (problem !== undefined) problems.push(problem);
  };
  add(urlFieldProblem(document.url, 'url'));
  add(urlFieldProblem(document.icon, 'icon'));
  add(stringProblem(document.title, 'title', PLATFORM_LIMITS.maxStringLength));
  add(stringProblem(document.description, 'description', PLATFORM_LIMITS.maxDescriptionLength));
  if (document.baseUrl !== undefined) add(urlFieldProblem(document.baseUrl, 'baseUrl'));
  const { actions } = document;
  if (!Array.isArray(actions)) return [...problems, 'actions is not an array'];
  if (actions.length === 0) add('actions is empty: the platform needs at least one');
  if (actions.length > PLATFORM_LIMITS.maxActions) {
    add(`actions holds ${actions.length} entries: the platform allows at most 4`);
  }
  actions.forEach((action: unknown, index) => {
    const at = `actions[${index}]`;
    if (!isPlainObject(action)) return add(`${at} is not an object`);
    if (typeof action.type !== 'string' || !PLATFORM_ACTION_TYPES.includes(action.type)) {
      return add(`${at}.type "${String(action.type)}" is not an action type the platform knows`);
    }
    if (CHAIN_ACTION_TYPES.includes(action.type)) {
      return void problems.push(...chainActionProblems(action, at));
    }
    if (action.type !== 'dynamic') return add(`${at}.type "${action.type}" is not checked here`);
    problems.push(...dynamicActionProblems(action, document.baseUrl, at));
  });
  return problems;
}

/** Throws one error listing every problem; for tests: `assertPlatformMetadata(await get(url))`. */
export function assertPlatformMetadata(document: unknown, name = 'metadata'): void {
  const problems = checkPlatformMetadata(document);
  if (problems.length > 0) {
    throw new Error(`The platform would refuse ${name}:\n  - ${problems.join('\n  - ')}`);
  }
}
