/**
 * The one rule that makes any value an action returns JSON-safe, the same in data answers, their
 * metadata, transaction `params` and the result cache: a `bigint` becomes its decimal text (what
 * viem returns is exact beyond 2^53, a JSON number would not be), a `Date` its ISO 8601 text (an
 * invalid one `null`, as `JSON.stringify` does). Other objects are walked (`toJSON` first), so
 * a value nested anywhere is converted; the rest is left as JSON has it. What needs no change is
 * answered as it is (the same object), a copy made only of what holds something to convert.
 */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date) return value.toJSON();
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const safe = jsonSafe(item);
      if (safe !== item) (copy ??= value.slice())[i] = safe;
    }
    return copy ?? value;
  }
  const { toJSON } = value as { toJSON?: unknown };
  if (typeof toJSON === 'function') return jsonSafe((toJSON as () => unknown).call(value));
  // A plain object whose values are all JSON already is answered as it is: most answers are, and
  // copying each on every request only fed the garbage collector.
  const plain = Object.getPrototypeOf(value) === Object.prototype;
  let copy: Record<string, unknown> | undefined = plain ? undefined : {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const safe = jsonSafe(item);
    if (copy) copy[key] = safe;
    else if (safe !== item) {
      copy = { ...(value as Record<string, unknown>) };
      copy[key] = safe;
    }
  }
  return copy ?? value;
}

/** The type of `jsonSafe(value)`: what a cached value reads back as. */
export type JsonSafe<T> = T extends bigint | Date
  ? string
  : T extends readonly (infer U)[]
    ? JsonSafe<U>[]
    : T extends object
      ? { [K in keyof T]: JsonSafe<T[K]> }
      : T;
