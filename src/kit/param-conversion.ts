import type { ParamSpec } from '../contract/action.types';
import { kindOf } from './params';

export { MAX_NUMERIC_TEXT, toNumber } from './params/numeric-text';

/** Missing means absent, null or blank text: a form field the user left empty. */
export function isMissing(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}

/**
 * Converts one raw input value to the parameter's type (a missing one to the declared default,
 * converted the same way); unconvertible values are left for validation to reject.
 */
export function convertParam(spec: ParamSpec, value: unknown): unknown {
  const kind = kindOf(spec.type);
  if (isMissing(value)) {
    return spec.value === undefined || !kind ? spec.value : kind.convert(spec, spec.value);
  }
  return kind ? kind.convert(spec, value) : value;
}

/** One comparable text per value, so `"2"` and `2` (or two equal dates) count as the same value. */
function canonical(value: unknown): string {
  if (value instanceof Date) return `date:${value.getTime()}`;
  return `${typeof value}:${String(value)}`;
}

/** Whether a sent value differs from a `fixed` parameter's declared value, once both are converted. */
export function changesFixedValue(spec: ParamSpec, value: unknown): boolean {
  if (isMissing(value)) return false;
  return canonical(convertParam(spec, value)) !== canonical(convertParam(spec, spec.value));
}
