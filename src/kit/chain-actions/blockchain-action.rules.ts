import type { AbiFunction, AbiParameter } from 'viem';
import { abiValueProblem, amountProblem, checksumProblem } from './chain-values';

/*
 * The platform's BlockchainActionValidator (sherry-sdk 2.27.24-beta.1,
 * src/validators/blockchainActionValidator.ts) on a published `blockchain` action, every problem
 * reported, plus what the kit adds: a checksummed address, a function that is not overloaded and
 * changes state, params for every input, values viem's encoder takes.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** UI types the platform maps onto ABI types (its isUITypeCompatible). */
const UI_TYPES: Record<string, (abiType: string) => boolean> = {
  text: (t) => t === 'string' || t.startsWith('bytes'),
  textarea: (t) => t === 'string' || t.startsWith('bytes'),
  email: (t) => t === 'string' || t.startsWith('bytes'),
  url: (t) => t === 'string' || t.startsWith('bytes'),
  number: (t) => /^u?int\d*$/.test(t),
  datetime: (t) => /^uint\d*$/.test(t),
};

/** The one function `functionName` names, or why there is none to call. */
function findFunction(abi: unknown, name: unknown): AbiFunction | string {
  if (!Array.isArray(abi) || abi.length === 0) return 'abi is not a non-empty array';
  if (typeof name !== 'string' || name === '') return 'functionName is missing';
  const functions = (abi as unknown[]).filter(
    (item): item is AbiFunction => isObject(item) && item.type === 'function',
  );
  const named = functions.filter((item) => item.name === name);
  if (named.length === 0) {
    const known = functions.map((item) => item.name).join(', ') || 'none';
    return `function "${name}" is not in the ABI (its functions: ${known})`;
  }
  if (named.length > 1) {
    return `function "${name}" is overloaded in the ABI: the platform would take the first, declare an ABI with the one meant`;
  }
  return named[0];
}

/** How the SDK tells option values apart: as text (`1` and `"1"` are one), objects as JSON. */
const optionKey = (value: unknown): string =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** select and radio: labelled options whose values fit the input, distinct; radio with two or more. */
function optionProblems(param: Json, input: AbiParameter, where: string): string[] {
  const { options, type } = param;
  if (!Array.isArray(options) || options.length === 0) return [`${where} has no options`];
  const problems: string[] = [];
  if (type === 'radio' && options.length < 2) problems.push(`${where} is a radio with one option`);
  const values = new Set<string>();
  const labels = new Set<unknown>();
  for (const option of options as unknown[]) {
    const { label, value } = isObject(option) ? option : {};
    if (typeof label !== 'string' || label === '')
      problems.push(`${where} has an option with no label`);
    else if (labels.has(label)) problems.push(`${where} has the option label "${label}" twice`);
    labels.add(label);
    const key = optionKey(value);
    if (values.has(key))
      problems.push(`${where} has the option value ${JSON.stringify(value)} twice`);
    values.add(key);
    const issue = abiValueProblem(value, input);
    if (issue) problems.push(`${where} has an option the ABI input refuses: ${issue}`);
  }
  // The default must be one of the options as it is, not as text: `1` is not the option "1".
  const same = (value: unknown): boolean =>
    typeof value === 'object' && value !== null
      ? JSON.stringify(value) === JSON.stringify(param.value)
      : value === param.value;
  const chosen = (options as unknown[]).some((option) => isObject(option) && same(option.value));
  if (param.value !== undefined && !chosen) {
    problems.push(`${where} has a default that is not one of its options`);
  }
  return problems;
}

const TEXT_TYPES = /^(text|email|url|textarea|string|bytes\d*)$/;
const NUMBER_TYPES = /^(number|datetime|u?int\d*)$/;

/** The SDK's checks of a standard parameter's own limits (validateStandardParameterProperties). */
function limitProblems(param: Json, where: string): string[] {
  const type = String(param.type);
  const problems: string[] = [];
  const pair = (low: 'minLength' | 'min', high: 'maxLength' | 'max', floor: boolean): void => {
    for (const field of [low, high]) {
      const value = param[field];
      if (value !== undefined && (typeof value !== 'number' || (floor && value < 0))) {
        problems.push(`${where}.${field} is not a${floor ? ' non-negative' : ''} number`);
      }
    }
    const [min, max] = [param[low], param[high]];
    if (typeof min === 'number' && typeof max === 'number' && min > max) {
      problems.push(`${where} has ${low} ${min} greater than ${high} ${max}`);
    }
  };
  if (TEXT_TYPES.test(type)) pair('minLength', 'maxLength', true);
  if (NUMBER_TYPES.test(type)) pair('min', 'max', false);
  const patterned = TEXT_TYPES.test(type) || NUMBER_TYPES.test(type) || type === 'address';
  if (patterned && param.pattern !== undefined) {
    let compiles = typeof param.pattern === 'string';
    try {
      if (compiles) new RegExp(param.pattern as string);
    } catch {
      compiles = false;
    }
    if (!compiles) problems.push(`${where}.pattern is not a regular expression that compiles`);
  }
  return problems;
}

/** One declared parameter against the ABI input at its position. */
function paramProblems(param: unknown, input: AbiParameter, where: string): string[] {
  if (!isObject(param)) return [`${where} is not an object`];
  const problems: string[] = [];
  if (param.name !== input.name) {
    problems.push(
      `${where} is named ${JSON.stringify(param.name)} but the ABI's input there is "${input.name ?? ''}" (params follow the ABI's order)`,
    );
  }
  if (typeof param.label !== 'string' || param.label === '') problems.push(`${where} has no label`);
  for (const [field, kind] of [
    ['fixed', 'boolean'],
    ['required', 'boolean'],
    ['description', 'string'],
  ] as const) {
    if (param[field] !== undefined && typeof param[field] !== kind) {
      problems.push(`${where}.${field} is not a ${kind}`);
    }
  }
  if (param.fixed === true && param.value === undefined) {
    problems.push(`${where} is fixed but has no value`);
  }
  const type = typeof param.type === 'string' ? param.type : input.type;
  if (type === 'select' || type === 'radio')
    return [...problems, ...optionProblems(param, input, where)];
  const fits = type === input.type || UI_TYPES[type]?.(input.type);
  if (!fits) {
    problems.push(`${where} has type "${type}", which the ABI's ${input.type} input does not take`);
  } else if (param.value !== undefined) {
    const issue = abiValueProblem(param.value, input);
    if (issue)
      problems.push(
        `${where} has a ${param.fixed ? 'fixed value' : 'default'} the ABI input refuses: ${issue}`,
      );
  }
  return [...problems, ...limitProblems(param, where)];
}

/** Every problem of a `blockchain` action's own fields; `at` names it in each. */
export function blockchainActionProblems(action: Json, at: string): string[] {
  const problems: string[] = [];
  const address = checksumProblem(action.address);
  if (address) problems.push(`${at}.address: ${address}`);
  const fn = findFunction(action.abi, action.functionName);
  if (typeof fn === 'string') return [...problems, `${at}.${fn}`];
  const payable = fn.stateMutability === 'payable';
  if (fn.stateMutability === 'view' || fn.stateMutability === 'pure') {
    problems.push(
      `${at}: function "${fn.name}" is ${fn.stateMutability}: a transaction calling it changes nothing`,
    );
  }
  const amountInput = fn.inputs.some((input) => input.name === 'amount');
  if (action.amount !== undefined) {
    const amount = amountProblem(action.amount, true);
    if (amount) problems.push(`${at}.amount: ${amount}`);
    else if (!payable && !amountInput) {
      problems.push(`${at}.amount is set but function "${fn.name}" is not payable`);
    }
  } else if (payable && !amountInput) {
    // The SDK refuses a payable call with nothing to say what it sends (not even 0).
    problems.push(`${at}.amount is missing but function "${fn.name}" is payable (0 sends nothing)`);
  }
  const params = action.params ?? [];
  if (!Array.isArray(params)) return [...problems, `${at}.params is not an array`];
  if (params.length !== fn.inputs.length) {
    const wanted = fn.inputs.map((input) => `${input.name ?? '?'} ${input.type}`).join(', ');
    problems.push(
      `${at}.params has ${params.length} entries but function "${fn.name}" takes ${fn.inputs.length} (${wanted || 'none'})`,
    );
  }
  fn.inputs.forEach((input, index) => {
    if (index < params.length) {
      problems.push(...paramProblems(params[index], input, `${at}.params[${index}]`));
    }
  });
  return problems;
}
