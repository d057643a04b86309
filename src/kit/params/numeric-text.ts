/**
 * Longest text read as a number (a double has at most 309 integer digits). Longer text stays
 * text, so validation refuses it without the pattern ever reading it.
 */
export const MAX_NUMERIC_TEXT = 400;

/** Unambiguous (digits, then an optional fraction, then an optional exponent): never backtracks. */
const NUMERIC_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

export function toNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value.length > MAX_NUMERIC_TEXT) return value;
  const text = value.trim();
  return NUMERIC_TEXT.test(text) ? Number(text) : value;
}
