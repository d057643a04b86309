import { getAddress, isAddress } from 'viem';
import type { ParamSpec } from './action.types';

const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

/** Missing means absent, null or blank text: a form field the user left empty. */
export function isMissing(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}

export function toNumber(value: unknown): unknown {
  if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Number(value);
  return value;
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
  return typeof value === 'string' && isAddress(value.trim()) ? getAddress(value.trim()) : value;
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
