import type { ActionParameter, ParamSpec } from '../../contract/action.types';
import { type ParamKind, rule, unusedFields } from './param-kind';
import { TEXT_FIELDS, UPLOAD_FIELDS } from './scalar.kinds';

/** ECMAScript's Date range: ±100 000 000 days around the epoch. */
const MAX_MS = 8.64e15;
const EPOCH_MS = /^-?\d{1,16}$/;
/**
 * The ISO 8601 profile browsers send: a date, optionally a time (seconds and fraction optional),
 * optionally an offset. A time without an offset is read as UTC, so no answer depends on the
 * server's time zone.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function fromMs(ms: number): Date | undefined {
  return Number.isSafeInteger(ms) && Math.abs(ms) <= MAX_MS ? new Date(ms) : undefined;
}

function fromIso(text: string): Date | undefined {
  const match = ISO.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
  utc.setUTCFullYear(year); // Date.UTC maps years 0-99 to 1900-1999
  // Calendar check: Date.UTC rolls 2025-02-30 over to March; a real date comes back unchanged.
  const real =
    utc.getUTCFullYear() === year &&
    utc.getUTCMonth() === month - 1 &&
    utc.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  if (!real) return undefined;
  if (zone.toUpperCase() === 'Z') return utc;
  const offsetHours = Number(zone.slice(1, 3));
  const offsetMinutes = Number(zone.slice(-2));
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const sign = zone.startsWith('-') ? -1 : 1;
  return fromMs(utc.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
}

/** ISO 8601 text, or milliseconds since the epoch (a number or its digits), as a Date. */
export function toDate(value: unknown): unknown {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return fromMs(value) ?? value;
  if (typeof value !== 'string' || value.length > 64) return value;
  const text = value.trim();
  return (EPOCH_MS.test(text) ? fromMs(Number(text)) : fromIso(text)) ?? value;
}

function bound(spec: ParamSpec, side: 'min' | 'max'): Date | undefined {
  const date = toDate(spec[side]);
  return date instanceof Date ? date : undefined;
}

const isDate = (value: unknown): value is Date => value instanceof Date;

/** `datetime`: handed over as a Date; `min`/`max` are dates too. */
export const datetimeKind: ParamKind = {
  convert: (_spec, value) => toDate(value),
  /** The platform reads a datetime default as epoch milliseconds ("Invalid number format" otherwise). */
  publish(param) {
    const date = param.value === undefined ? undefined : toDate(param.value);
    return date instanceof Date ? { ...param, value: date.getTime() } : param;
  },
  rules(spec) {
    const rules = [rule('isDate', isDate, '$property must be a valid date')];
    const min = bound(spec, 'min');
    const max = bound(spec, 'max');
    if (min)
      rules.push(
        rule(
          'dateMin',
          (v) => isDate(v) && v >= min,
          `$property must be at least ${min.toISOString()}`,
        ),
      );
    if (max)
      rules.push(
        rule(
          'dateMax',
          (v) => isDate(v) && v <= max,
          `$property must be at most ${max.toISOString()}`,
        ),
      );
    return rules;
  },
  check(param: ActionParameter) {
    const problems = unusedFields(param, [...UPLOAD_FIELDS, ...TEXT_FIELDS, 'step', 'options']);
    for (const side of ['min', 'max'] as const) {
      if (param[side] !== undefined && !bound(param, side))
        problems.push(`has a ${side} that is not a date (ISO 8601 or epoch milliseconds)`);
    }
    const min = bound(param, 'min');
    const max = bound(param, 'max');
    if (min && max && min > max)
      problems.push(`has min ${min.toISOString()} later than max ${max.toISOString()}`);
    return problems;
  },
};
