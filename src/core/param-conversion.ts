import type { ParamSpec } from './action.types';
import { readAddress } from './address';

/**
 * Longest text read as a number (a double has at most 309 integer digits). Longer text stays
 * text, so validation refuses it without the pattern ever reading it.
 */
export const MAX_NUMERIC_TEXT = 400;

/** Unambiguous (digits, then an optional fraction, then an optional exponent): never backtracks. */
const NUMERIC_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** Missing means absent, null or blank text: a form field the user left empty. */
export function isMissing(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}

export function toNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value.length > MAX_NUMERIC_TEXT) return value;
  const text = value.trim();
  return NUMERIC_TEXT.test(text) ? Number(text) : value;
}

function toBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim().toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : value;
}

/** Values arrive as text from query strings and forms; option values keep their declared type. */
function toOption(spec: ParamSpec, value: unknown): unknown {
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const match = spec.options?.find((option) => String(option.value) === String(value).trim());
  return match ? match.value : value;
}

function toText(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

function toAddress(value: unknown): unknown {
  return typeof value === 'string' ? (readAddress(value) ?? value) : value;
}

/** Converts one raw input value to the parameter's type; unconvertible values are left for validation to reject. */
export function convertParam(spec: ParamSpec, value: unknown): unknown {
  if (isMissing(value)) return spec.value;
  switch (spec.type) {
    case 'number':
      return toNumber(value);
    case 'boolean':
      return toBoolean(value);
    case 'select':
    case 'radio':
      return toOption(spec, value);
    case 'address':
      return toAddress(value);
    case 'string':
      return toText(value);
  }
}
