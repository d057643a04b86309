import { IsBoolean, IsIn, IsNumber, Max, Min } from '../../config/validator-subset';
import { isAddress } from 'viem';
import type { ActionParameter, ParamSpec } from '../../contract/action.types';
import { readAddress } from '../../contract/address';
import { toNumber } from './numeric-text';
import { type ParamKind, rule, unusedFields } from './param-kind';

const UPLOAD_FIELDS = [
  'accept',
  'maxSize',
  'multiple',
  'maxWidth',
  'maxHeight',
  'aspectRatio',
] as const;
const TEXT_FIELDS = ['minLength', 'maxLength', 'pattern'] as const;

function isMultipleOf(value: unknown, step: number, base: number): boolean {
  if (typeof value !== 'number') return true;
  const steps = (value - base) / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

export const numberKind: ParamKind = {
  convert: (_spec, value) => toNumber(value),
  /** A default declared as decimal text is published as the number; the platform checks its form. */
  publish(param) {
    const value = typeof param.value === 'string' ? toNumber(param.value) : param.value;
    return typeof value === 'number' && /^-?\d+(\.\d+)?$/.test(String(param.value).trim())
      ? { ...param, value }
      : param;
  },
  rules(spec) {
    const rules = [IsNumber({}, { message: '$property must be a valid number' })];
    const { min, max, step } = spec;
    if (typeof min === 'number')
      rules.push(Min(min, { message: `$property must be at least ${min}` }));
    if (typeof max === 'number')
      rules.push(Max(max, { message: `$property must be at most ${max}` }));
    if (step !== undefined) {
      const base = typeof min === 'number' ? min : 0;
      rules.push(
        rule(
          'isMultipleOf',
          (v) => isMultipleOf(v, step, base),
          `$property must be a multiple of ${step}`,
        ),
      );
    }
    return rules;
  },
  check(param) {
    const problems = unusedFields(param, [...UPLOAD_FIELDS, ...TEXT_FIELDS]);
    for (const bound of ['min', 'max'] as const) {
      const value = param[bound];
      if (value !== undefined && !Number.isFinite(value))
        problems.push(`has a ${bound} that is not a number`);
    }
    const { min, max, step, value } = param;
    // min above max is the platform's rule (src/publishing/platform-parameter.ts), checked there.
    if (step !== undefined && !(step > 0)) problems.push('has a step that is not positive');
    if (typeof value === 'number' && typeof min === 'number' && value < min)
      problems.push('has a default below its min');
    if (typeof value === 'number' && typeof max === 'number' && value > max)
      problems.push('has a default above its max');
    return problems;
  },
};

/** The platform wants a boolean default as a JSON boolean, never the text "true". */
export const booleanKind: ParamKind = {
  publish(param) {
    const value = booleanKind.convert(param, param.value);
    return typeof value === 'boolean' ? { ...param, value } : param;
  },
  convert(_spec, value) {
    if (typeof value !== 'string') return value;
    const text = value.trim().toLowerCase();
    return text === 'true' ? true : text === 'false' ? false : value;
  },
  rules: () => [IsBoolean({ message: '$property must be true or false' })],
  check: (param) => unusedFields(param, [...UPLOAD_FIELDS, ...TEXT_FIELDS, 'min', 'max', 'step']),
};

/** Values arrive as text from query strings and forms; option values keep their declared type. */
export const choiceKind: ParamKind = {
  convert(spec: ParamSpec, value) {
    if (typeof value !== 'string' && typeof value !== 'number') return value;
    const match = spec.options?.find((option) => String(option.value) === String(value).trim());
    return match ? match.value : value;
  },
  rules(spec) {
    const values = (spec.options ?? []).map((option) => option.value);
    return [IsIn(values, { message: `$property must be one of: ${values.join(', ')}` })];
  },
  check(param: ActionParameter) {
    const problems = unusedFields(param, [...UPLOAD_FIELDS, ...TEXT_FIELDS, 'min', 'max', 'step']);
    // Options missing, too few or repeated are the platform's rules (platform-parameter.ts).
    const options = param.options ?? [];
    if (
      param.value !== undefined &&
      options.length > 0 &&
      !options.some((o) => o.value === param.value)
    )
      problems.push('has a default that is not one of its options');
    return problems;
  },
};

export const addressKind: ParamKind = {
  convert: (_spec, value) => (typeof value === 'string' ? (readAddress(value) ?? value) : value),
  rules: () => [
    rule(
      'isAddress',
      (v) => typeof v === 'string' && isAddress(v),
      '$property must be a valid address',
    ),
  ],
  check: (param) => unusedFields(param, [...UPLOAD_FIELDS, ...TEXT_FIELDS, 'min', 'max', 'step']),
};

export { UPLOAD_FIELDS, TEXT_FIELDS };
