import type { AbiFunction, AbiParameter } from 'viem';
import { abiValueProblem, amountProblem, checksumProblem } from './chain-values';

/*
 * The platform's BlockchainActionValidator (sherry-sdk src/validators/blockchainActionValidator.ts)
 * on a published `blockchain` action, every problem reported, plus what the kit adds: a checksummed
 * address, a function that is not overloaded and changes state.
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

/** select and radio: options whose values fit the input, distinct; radio with two or more. */
function optionProblems(param: Json, input: AbiParameter, where: string): string[] {
  const { options, type } = param;
  if (!Array.isArray(options) || options.length === 0) return [`${where} has no options`];
  const problems: string[] = [];
  if (type === 'radio' && options.length < 2) problems.push(`${where} is a radio with one option`);
  const seen = new Set<string>();
  for (const option of options as unknown[]) {
    const value = isObject(option) ? option.value : undefined;
    const text = JSON.stringify(value);
    if (seen.has(text)) problems.push(`${where} has the option value ${text} twice`);
    seen.add(text);
    const issue = abiValueProblem(value, input);
    if (issue) problems.push(`${where} has an option the ABI input refuses: ${issue}`);
  }
  if (param.value !== undefined && !seen.has(JSON.stringify(param.value))) {
    problems.push(`${where} has a default that is not one of its options`);
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
  if (param.fixed !== undefined && typeof param.fixed !== 'boolean') {
    problems.push(`${where} has a fixed that is not true or false`);
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
  return problems;
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
  if (action.amount !== undefined) {
    const amount = amountProblem(action.amount, true);
    if (amount) problems.push(`${at}.amount: ${amount}`);
    else if (!payable && !fn.inputs.some((input) => input.name === 'amount')) {
      problems.push(`${at}.amount is set but function "${fn.name}" is not payable`);
    }
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
