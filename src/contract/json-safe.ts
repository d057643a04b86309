/**
 * The one rule that makes any value an action returns JSON-safe, the same in data answers, their
 * metadata, transaction `params` and the result cache: a `bigint` becomes its decimal text (what
 * viem returns is exact beyond 2^53, a JSON number would not be), a `Date` its ISO 8601 text (an
 * invalid one `null`, as `JSON.stringify` does). Other objects are walked (`toJSON` first), so
 * a value nested anywhere is converted; the rest is left as JSON has it.
 */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return value.toJSON();
  if (Array.isArray(value)) return value.map(jsonSafe);
  const { toJSON } = value as { toJSON?: unknown };
  if (typeof toJSON === 'function') return jsonSafe((toJSON as () => unknown).call(value));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonSafe(item)]));
}

/** The type of `jsonSafe(value)`: what a cached value reads back as. */
export type JsonSafe<T> = T extends bigint | Date
  ? string
  : T extends readonly (infer U)[]
    ? JsonSafe<U>[]
    : T extends object
      ? { [K in keyof T]: JsonSafe<T[K]> }
      : T;
