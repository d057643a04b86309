import { platformParameterProblems } from './platform-parameter';
import { isPlainObject } from './platform-rules';

const isChainId = (value: unknown): boolean =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** Where the platform will send the action: an absolute http(s) URL, or a path on baseUrl. */
function pathProblems(path: unknown, baseUrl: unknown, at: string): string[] {
  if (typeof path !== 'string' || path === '') return [`${at}.path is missing or empty`];
  if (path.startsWith('http')) {
    const url = URL.canParse(path) ? new URL(path) : undefined;
    return url && (url.protocol === 'http:' || url.protocol === 'https:')
      ? []
      : [`${at}.path "${path}" is not an http(s) URL`];
  }
  if (!path.startsWith('/')) {
    return [`${at}.path "${path}" must be an http(s) URL or start with "/"`];
  }
  if (typeof baseUrl !== 'string' || baseUrl === '') {
    return [`${at}.path "${path}" is relative but the document has no baseUrl`];
  }
  return URL.canParse(path, baseUrl) ? [] : [`${at}.path "${path}" does not resolve on baseUrl`];
}

function chainProblems(chains: unknown, at: string): string[] {
  if (!isPlainObject(chains)) return [`${at}.chains is missing`];
  const problems: string[] = [];
  if (!isChainId(chains.source)) problems.push(`${at}.chains.source is not a chain id`);
  if (chains.destination !== undefined && !isChainId(chains.destination)) {
    problems.push(`${at}.chains.destination is not a chain id`);
  }
  return problems;
}

/** The SDK's DynamicActionValidator on one entry of `actions`. */
export function dynamicActionProblems(
  action: Record<string, unknown>,
  baseUrl: unknown,
  at: string,
): string[] {
  const problems: string[] = [];
  if (typeof action.label !== 'string' || action.label === '') {
    problems.push(`${at}.label is missing or empty`);
  }
  if (action.description !== undefined && typeof action.description !== 'string') {
    problems.push(`${at}.description is not text`);
  }
  problems.push(...pathProblems(action.path, baseUrl, at));
  problems.push(...chainProblems(action.chains, at));
  if (action.params !== undefined) {
    if (!Array.isArray(action.params)) problems.push(`${at}.params is not an array`);
    else {
      action.params.forEach((param: unknown, index) =>
        problems.push(
          ...platformParameterProblems(param).map((p) => `${at}.params[${index}]: ${p}`),
        ),
      );
    }
  }
  return problems;
}
