import { KNOWN_CHAINS } from './known-chains';

/** Longer text is no chain name (the longest is 22 characters): it is refused unread. */
export const MAX_CHAIN_TEXT = 64;

/** Names match whatever their letter case and surrounding spaces. */
const key = (name: string): string => name.trim().toLowerCase();

function buildIndex(): ReadonlyMap<string, number> {
  const index = new Map<string, number>();
  for (const chain of KNOWN_CHAINS) {
    for (const name of chain.names) {
      const other = index.get(key(name));
      // A name of two chains would make a request's meaning depend on the list's order.
      if (other !== undefined && other !== chain.id) {
        throw new Error(`Chain name "${name}" is listed for chains ${other} and ${chain.id}`);
      }
      index.set(key(name), chain.id);
    }
  }
  return index;
}

const INDEX = buildIndex();

/** The id of a chain named as the platform names it (`fuji`, ` Avalanche Fuji `), if any. */
export function chainIdByName(name: string): number | undefined {
  return name.length > MAX_CHAIN_TEXT ? undefined : INDEX.get(key(name));
}

/**
 * A chain as a request sent it, read: an id (undefined when the field was absent), or why the value
 * names no chain, so the caller's 400 can say which.
 */
export type ChainReading =
  | { ok: true; chainId: number | undefined }
  | { ok: false; problem: 'not-an-id' | 'unknown-name' | 'not-text' };

const DIGITS = /^\d{1,16}$/;
/** Text starting like a number is a (malformed) id, not a name: no chain name starts so. */
const NUMERIC = /^[-+.\d]/;

/**
 * Reads a chain as requests carry it: an integer id (a JSON number or decimal text) or a known
 * name. Absent, null and blank are no chain. Bounded: text over MAX_CHAIN_TEXT is never scanned.
 */
export function readChainValue(value: unknown): ChainReading {
  if (value === undefined || value === null) return { ok: true, chainId: undefined };
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value > 0
      ? { ok: true, chainId: value }
      : { ok: false, problem: 'not-an-id' };
  }
  if (typeof value !== 'string') return { ok: false, problem: 'not-text' };
  if (value.length > MAX_CHAIN_TEXT) return { ok: false, problem: 'unknown-name' };
  const text = value.trim();
  if (text === '') return { ok: true, chainId: undefined };
  if (DIGITS.test(text)) {
    const id = Number(text);
    if (Number.isSafeInteger(id) && id > 0) return { ok: true, chainId: id };
  }
  if (NUMERIC.test(text)) return { ok: false, problem: 'not-an-id' };
  const id = chainIdByName(text);
  return id === undefined ? { ok: false, problem: 'unknown-name' } : { ok: true, chainId: id };
}
