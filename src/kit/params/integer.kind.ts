import type { ActionParameter, ParamSpec } from '../../contract/action.types';
import { type ParamKind, rule, unusedFields } from './param-kind';
import { TEXT_FIELDS, UPLOAD_FIELDS } from './scalar.kinds';

const INTEGER_TYPE = /^(u?)int(\d{1,3})$/;

/** The range of a Solidity integer type, or undefined when the type names no such width. */
export function integerRange(type: string): { min: bigint; max: bigint } | undefined {
  const match = INTEGER_TYPE.exec(type);
  const bits = match ? Number(match[2]) : 0;
  if (!match || String(bits) !== match[2] || bits < 8 || bits > 256 || bits % 8 !== 0)
    return undefined;
  const width = BigInt(bits);
  return match[1] === 'u'
    ? { min: 0n, max: 2n ** width - 1n }
    : { min: -(2n ** (width - 1n)), max: 2n ** (width - 1n) - 1n };
}

const DIGITS = /^[+-]?\d+$/;
/** More significant digits than any int256 has (78): out of range whatever the type. */
const MAX_DIGITS = 80;
const FAR_OUT = 2n ** 300n;

/**
 * Whole-number text to a bigint, never through a float. Longer text than any type holds becomes
 * a value just as far out of range, so it gets the bound's message without a long conversion.
 */
export function toBigInt(value: unknown): unknown {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!DIGITS.test(text)) return value;
  const negative = text.startsWith('-');
  const digits = text.replace(/^[+-]/, '').replace(/^0+/, '');
  if (digits.length > MAX_DIGITS) return negative ? -FAR_OUT : FAR_OUT;
  return BigInt(text);
}

/** The declared bound, or the type's own when none is declared. */
function bound(spec: ParamSpec, side: 'min' | 'max'): bigint {
  const range = integerRange(spec.type) ?? { min: -FAR_OUT, max: FAR_OUT };
  const declared = toBigInt(spec[side]);
  return typeof declared === 'bigint' ? declared : range[side];
}

const isBigInt = (value: unknown): value is bigint => typeof value === 'bigint';

/**
 * The platform compares text bounds as text ("9…" > "10…"): a bound that fits a JS number exactly
 * is published as one; a larger one stays text, and the boot check refuses a pair the platform
 * would misjudge.
 */
function publishedBound(value: ParamSpec['min']): ParamSpec['min'] {
  if (typeof value !== 'string') return value;
  const exact = toBigInt(value);
  return isBigInt(exact) && Number.isSafeInteger(Number(exact)) && BigInt(Number(exact)) === exact
    ? Number(exact)
    : value;
}

/** `uint8`…`uint256`, `int8`…`int256`: handed over as `bigint`. */
export const integerKind: ParamKind = {
  publish: (param) => ({
    ...param,
    ...(param.min !== undefined && { min: publishedBound(param.min) }),
    ...(param.max !== undefined && { max: publishedBound(param.max) }),
  }),
  convert: (_spec, value) => toBigInt(value),
  rules(spec) {
    const min = bound(spec, 'min');
    const max = bound(spec, 'max');
    return [
      // A JSON number past 2^53 was already rounded by the parser: refuse it rather than guess.
      rule(
        'isExactWholeNumber',
        (v) => !(typeof v === 'number' && Number.isInteger(v)),
        '$property must be sent as text to be exact beyond 2^53',
      ),
      rule('isWholeNumber', isBigInt, '$property must be a whole number'),
      rule('integerMin', (v) => isBigInt(v) && v >= min, `$property must be at least ${min}`),
      rule('integerMax', (v) => isBigInt(v) && v <= max, `$property must be at most ${max}`),
    ];
  },
  check(param: ActionParameter) {
    const range = integerRange(param.type);
    if (!range) return [];
    const problems = unusedFields(param, [...UPLOAD_FIELDS, ...TEXT_FIELDS, 'step', 'options']);
    const bounds: Partial<Record<'min' | 'max', bigint>> = {};
    for (const side of ['min', 'max'] as const) {
      const declared = param[side];
      if (declared === undefined) continue;
      const value = toBigInt(declared);
      if (!isBigInt(value)) problems.push(`has a ${side} that is not a whole number`);
      else if (value < range.min || value > range.max)
        problems.push(`has a ${side} of ${value}, outside the range of ${param.type}`);
      else bounds[side] = value;
    }
    if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max)
      problems.push(`has min ${bounds.min} greater than max ${bounds.max}`);
    return problems;
  },
};
