/** Ordered id sets by key, as the memory store indexes open intents (a Set keeps insertion order). */

export function add(sets: Map<string, Set<string>>, key: string, id: string): void {
  sets.set(key, (sets.get(key) ?? new Set<string>()).add(id));
}

export function remove(sets: Map<string, Set<string>>, key: string, id: string): void {
  const set = sets.get(key);
  if (set?.delete(id) && set.size === 0) sets.delete(key);
}

/** The first ids of a set past `bound`, without copying it (done on every answer). */
export function oldest(set: Set<string> | undefined, bound: number): string[] {
  const out: string[] = [];
  let past = (set?.size ?? 0) - bound;
  for (const id of set ?? []) {
    if (past-- <= 0) break;
    out.push(id);
  }
  return out;
}
