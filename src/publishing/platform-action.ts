import { isAddress } from 'viem';
import { isPlainObject } from './platform-rules';

const isChainId = (value: unknown): boolean =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** The SDK's ParameterValidator on one parameter: problems prefixed with `at`. */
function parameterProblems(param: unknown, at: string): string[] {
  if (!isPlainObject(param)) return [`${at} is not an object`];
  const { name, label, type } = param;
  if (typeof name !== 'string' || name === '') return [`${at} has no name`];
  if (typeof label !== 'string' || label === '') return [`${at} ("${name}") has no label`];
  if (typeof type !== 'string' || type === '') return [`${at} ("${name}") has no type`];
  const where = `${at} ("${name}")`;
  if (type === 'select' || type === 'radio') return optionProblems(param, where);
  const problems: string[] = [];
  const { min, max, minLength, maxLength, pattern, value } = param;
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    problems.push(`${where} has min ${min} greater than max ${max}`);
  }
  if (typeof minLength === 'number' && typeof maxLength === 'number' && minLength > maxLength) {
    problems.push(`${where} has minLength ${minLength} greater than maxLength ${maxLength}`);
  }
  if (typeof pattern === 'string' && pattern !== '') {
    try {
      new RegExp(pattern);
    } catch {
      problems.push(`${where} has a pattern that is not a valid regular expression`);
    }
  }
  if (typeof value === 'string') {
    if (type === 'url' && !URL.canParse(value))
      problems.push(`${where} has a default that is not a URL`);
    if (type === 'address' && value !== 'sender' && !isAddress(value)) {
      problems.push(`${where} has a default that is not an address`);
    }
  }
  return problems;
}

/** select and radio: at least one option, each with a label and a value, values distinct. */
function optionProblems(param: Record<string, unknown>, where: string): string[] {
  const { options, type } = param;
  if (!Array.isArray(options) || options.length === 0) {
    return [`${where} is a ${String(type)} without options`];
  }
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [index, option] of (options as unknown[]).entries()) {
    const entry = isPlainObject(option) ? option : {};
    if (!entry.label) problems.push(`${where} option ${index} has no label`);
    if (entry.value === undefined) {
      problems.push(`${where} option ${index} has no value`);
      continue;
    }
    // The platform compares option values as text: 1 and "1" are the same choice.
    const value = typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value);
    if (seen.has(value)) problems.push(`${where} has the option value "${value}" twice`);
    seen.add(value);
  }
  return problems;
}

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
        problems.push(...parameterProblems(param, `${at}.params[${index}]`)),
      );
    }
  }
  return problems;
}
