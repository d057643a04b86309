/**
 * Reading a JSON body as Fastify's own parser does (secure-json-parse with `remove`): `__proto__`
 * keys removed, and `constructor` keys whose value holds a `prototype`. secure-json-parse scans the
 * whole value whenever the text holds such a key, however deep and wide: a 1 MB body of nested
 * arrays with one `__proto__` cost up to 120 ms of event loop. Here the scan is bounded: a value
 * deeper than MAX_DEPTH or with more than MAX_NODES objects and arrays, holding such a key, is
 * refused instead of scanned.
 */

// The key, also spelt with \u escapes (JSON.parse reads them as the same key).
const PROTO =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
const CONSTRUCTOR =
  /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;

export const MAX_DEPTH = 64;
export const MAX_NODES = 10_000;

export class JsonBodyError extends Error {}

export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonBodyError('Request body is not valid JSON');
  }
  if (PROTO.test(text) || CONSTRUCTOR.test(text)) strip(value);
  return value;
}

/** Removes the poisoning keys, walking at most MAX_NODES containers no deeper than MAX_DEPTH. */
function strip(root: unknown): void {
  const pending: [unknown, number][] = [[root, 0]];
  let nodes = 0;
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) {
      throw new JsonBodyError(
        `Request body is too deep or too large to check (at most ${MAX_DEPTH} levels and ${MAX_NODES} objects)`,
      );
    }
    const bag = node as Partial<Record<string, unknown>>;
    if (Object.hasOwn(bag, '__proto__')) Reflect.deleteProperty(bag, '__proto__');
    const ctor = Object.hasOwn(bag, 'constructor') ? bag['constructor'] : undefined;
    if (typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype'))
      Reflect.deleteProperty(bag, 'constructor');
    for (const child of Array.isArray(node) ? node : Object.values(bag))
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
  }
}
