import { isEmail, IsString, isURL, MaxLength, MinLength } from '../../config/validator-subset';
import type { ActionParameter, ParamSpec } from '../../contract/action.types';
import { compilePattern, patternProblem } from './text-pattern';
import { type ParamKind, rule, unusedFields } from './param-kind';
import { UPLOAD_FIELDS } from './scalar.kinds';

const toText = (value: unknown): unknown =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;

export function textRules(spec: ParamSpec): PropertyDecorator[] {
  const rules = [IsString({ message: '$property must be text' })];
  if (spec.minLength !== undefined)
    rules.push(
      MinLength(spec.minLength, {
        message: `$property must be at least ${spec.minLength} characters`,
      }),
    );
  if (spec.maxLength !== undefined)
    rules.push(
      MaxLength(spec.maxLength, {
        message: `$property must be at most ${spec.maxLength} characters`,
      }),
    );
  // A pattern RE2 cannot compile is reported at boot by checkDeclaration, naming the action.
  if (spec.pattern !== undefined && patternProblem(spec.pattern) === undefined) {
    const matches = compilePattern(spec.pattern);
    rules.push(
      rule(
        'matchesPattern',
        (v) => typeof v === 'string' && matches(v),
        '$property has an invalid format',
      ),
    );
  }
  return rules;
}

export function textCheck(param: ActionParameter): string[] {
  const problems = unusedFields(param, [...UPLOAD_FIELDS, 'min', 'max', 'step', 'options']);
  for (const field of ['minLength', 'maxLength'] as const) {
    const value = param[field];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0))
      problems.push(`has a ${field} that is not a whole number of characters`);
  }
  const { minLength, maxLength } = param;
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength)
    problems.push(`has minLength ${minLength} greater than maxLength ${maxLength}`);
  const patternIssue = param.pattern !== undefined ? patternProblem(param.pattern) : undefined;
  if (patternIssue) problems.push(patternIssue);
  return problems;
}

/** `text`, `string`, `textarea`: text as sent (numbers and booleans as their text). */
export const textKind: ParamKind = {
  convert: (_spec, value) => toText(value),
  rules: textRules,
  check: textCheck,
};

const trimmed = (value: unknown): unknown => {
  const text = toText(value);
  return typeof text === 'string' ? text.trim() : text;
};

export const emailKind: ParamKind = {
  convert: (_spec, value) => trimmed(value),
  rules: (spec) => [
    ...textRules(spec),
    rule(
      'isEmail',
      (v) => typeof v === 'string' && isEmail(v),
      '$property must be a valid email address',
    ),
  ],
  check: textCheck,
};

/** An absolute http(s) URL (validator.js caps its length at 2083 characters). */
const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

export const urlKind: ParamKind = {
  convert: (_spec, value) => trimmed(value),
  rules: (spec) => [
    ...textRules(spec),
    rule(
      'isHttpUrl',
      (v) => typeof v === 'string' && isURL(v, HTTP_URL),
      '$property must be a valid URL',
    ),
  ],
  check: textCheck,
};
