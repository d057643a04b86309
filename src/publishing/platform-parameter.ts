import { isAddress } from 'viem';
import { isPlainObject } from './platform-rules';

/**
 * The SDK's ParameterValidator (and what running its `createMetadata` showed) on one published
 * parameter. Each problem names the parameter and the platform's rule; one refused parameter
 * makes the platform refuse the whole mini-app.
 */

/** The e-mail pattern of the platform's validator: a top-level domain of 2 to 4 characters. */
export const PLATFORM_EMAIL = /^[\w\-.]+@([\w-]+\.)+[\w-]{2,4}$/;

/** A decimal without exponent, as the validator reads a number default. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

type Bound = string | number;
const isBound = (value: unknown): value is Bound =>
  typeof value === 'number' || typeof value === 'string';

/**
 * `min > max` as the validator computes it in JavaScript: two texts compare as text ("9…" is
 * greater than "10…"), a text and a number as numbers.
 */
export function platformSaysGreater(min: Bound, max: Bound): boolean {
  if (typeof min === 'string' && typeof max === 'string') return min > max;
  return Number(min) > Number(max);
}

/** Whether the validator reads a `number` default as a plain decimal (no exponent form). */
const plainNumberDefault = (value: unknown): boolean =>
  (typeof value === 'number' && Number.isFinite(value) && PLAIN_DECIMAL.test(String(value))) ||
  (typeof value === 'string' && PLAIN_DECIMAL.test(value));

/** select and radio: options with a label and a value, values distinct as text; radio two or more. */
function optionProblems(param: Record<string, unknown>): string[] {
  const { options, type } = param;
  if (!Array.isArray(options) || options.length === 0) {
    return [`is a ${String(type)} without options (the platform needs at least one option)`];
  }
  const problems: string[] = [];
  if (type === 'radio' && options.length < 2) {
    problems.push('is a radio with one option (the platform needs at least 2 options)');
  }
  const seen = new Set<string>();
  for (const [index, option] of (options as unknown[]).entries()) {
    const entry = isPlainObject(option) ? option : {};
    if (!entry.label) problems.push(`option ${index} has no label`);
    const { value } = entry;
    if (value === undefined) {
      problems.push(`option ${index} has no value`);
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      problems.push(`option ${index} has a value that is not text, a number or a boolean`);
      continue;
    }
    // The platform compares option values as text: 1 and "1" are the same choice.
    const text = String(value);
    if (seen.has(text)) {
      problems.push(
        `has the option value "${text}" twice (the platform needs unique option values)`,
      );
    }
    seen.add(text);
  }
  return problems;
}

/** What the validator says of a declared default (`value`) of the parameter's type. */
function defaultProblems(type: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (type === 'datetime' && typeof value !== 'number') {
    return [
      'has a datetime default that is not epoch milliseconds (the platform: "Invalid number format")',
    ];
  }
  if ((type === 'boolean' || type === 'bool') && typeof value !== 'boolean') {
    return ['has a boolean default that is not true or false as JSON (the platform refuses text)'];
  }
  if (type === 'number' && !plainNumberDefault(value)) {
    return [
      'has a number default in exponent form or not a number (the platform wants a plain decimal)',
    ];
  }
  if (typeof value !== 'string') return [];
  if (type === 'email' && !PLATFORM_EMAIL.test(value)) {
    return [
      "has an e-mail default the platform's pattern refuses (a top-level domain of 2 to 4 characters)",
    ];
  }
  if (type === 'url' && !URL.canParse(value)) return ['has a default that is not a URL'];
  if (type === 'address' && value !== 'sender' && !isAddress(value)) {
    return ['has a default that is not an address (nor "sender")'];
  }
  return [];
}

/** Problems of fields of every type: bounds, lengths, the pattern. */
function fieldProblems(param: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const { min, max, minLength, maxLength, pattern } = param;
  if (isBound(min) && isBound(max) && platformSaysGreater(min, max)) {
    const shown = (bound: Bound): string => (typeof bound === 'string' ? `"${bound}"` : `${bound}`);
    const asText = typeof min === 'string' && typeof max === 'string';
    problems.push(
      `has min ${shown(min)} greater than max ${shown(max)}${asText ? ' as the platform compares them (text bounds compare as text: publish bounds that fit a JS number as numbers)' : ''}`,
    );
  }
  if (typeof minLength === 'number' && typeof maxLength === 'number' && minLength > maxLength) {
    problems.push(`has minLength ${minLength} greater than maxLength ${maxLength}`);
  }
  if (typeof pattern === 'string' && pattern !== '') {
    try {
      new RegExp(pattern);
    } catch {
      problems.push('has a pattern that is not a valid regular expression');
    }
  }
  return problems;
}

/**
 * Every problem the platform has with one published parameter, each starting `parameter "<name>"`
 * (or saying which field is missing): what the boot check, the conformance kit, `/debug` and
 * `npm run check` all report.
 */
export function platformParameterProblems(param: unknown): string[] {
  if (!isPlainObject(param)) return ['a parameter is not an object'];
  const { name, label, type } = param;
  if (typeof name !== 'string' || name === '') return ['a parameter has no name'];
  const at = `parameter "${name}"`;
  if (typeof label !== 'string' || label === '') return [`${at} has no label`];
  if (typeof type !== 'string' || type === '') return [`${at} has no type`];
  const problems =
    type === 'select' || type === 'radio'
      ? optionProblems(param)
      : [...fieldProblems(param), ...defaultProblems(type, param.value)];
  return problems.map((problem) => `${at} ${problem}`);
}
