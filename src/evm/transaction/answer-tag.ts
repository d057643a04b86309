import { randomBytes } from 'node:crypto';
import { Attribution } from 'ox/erc8021';
import type { Hex } from 'viem';

/**
 * The per-answer tag (issue 42): every transaction answer that carries calldata carries, at its
 * end, an ERC-8021 data suffix (schema 0: `codes ∥ codesLength ∥ schemaId ∥ 0x8021…8021`) whose
 * one code is the answer's intent id. Solidity functions, proxies and ERC-20s ignore calldata past
 * their arguments, so the call runs (and is simulated) as before; and the bytes travel unchanged
 * inside every wallet that embeds the call (a smart account's `execute`, a Safe's
 * `execTransaction`, an ERC-4337 user operation, a 7702 batch). So a mined transaction names the
 * one answer it was signed from: two answers with identical calls differ, and nothing mined
 * before an answer can carry its tag. ERC-8021 is what wallets and builder codes already append;
 * ox (viem's own core) writes and reads it.
 *
 * A call with no calldata (the coin sent to an address) is not tagged: a contract with `receive()`
 * and no fallback refuses data. Those intents are matched by sender, recipient, value and nonce.
 */

/** 24 random bytes in base64url: 32 URL-safe characters, as an intent id is. */
export const newAnswerTag = (): string => randomBytes(24).toString('base64url');

/** `data` with the tag appended; untouched when there is no calldata to tag. */
export function withTag(data: Hex | undefined, tag: string | undefined): Hex | undefined {
  if (tag === undefined || data === undefined || data === '0x') return data;
  return `${data}${Attribution.toDataSuffix({ codes: [tag] }).slice(2)}` as Hex;
}

/** ERC-8021's 16-byte marker, as lower-case hex without `0x`. */
const MARKER = Attribution.ercSuffix.slice(2).toLowerCase();

/** At most this many suffixes are read from one input: a block's bound, whatever it holds. */
const MAX_TAGS_PER_INPUT = 16;

/**
 * The schema-0 codes of every ERC-8021 suffix inside `input`, wherever it sits: at the end of a
 * plain call, or in the middle of a wrapper's ABI-encoded arguments. A wallet may append its own
 * suffix after ours; each marker is read back from its own position.
 */
export function tagsIn(input: string): string[] {
  const hex = input.toLowerCase();
  const tags: string[] = [];
  let at = hex.indexOf(MARKER, 2);
  let found = 0;
  while (at >= 0 && found < MAX_TAGS_PER_INPUT) {
    found += 1;
    // Ends on a whole byte (hex digits after `0x` come in pairs).
    if (at % 2 === 0) tags.push(...codesBefore(hex, at));
    at = hex.indexOf(MARKER, at + 1);
  }
  return tags;
}

function codesBefore(hex: string, marker: number): string[] {
  try {
    const attribution = Attribution.fromData(`0x${hex.slice(2, marker + MARKER.length)}`);
    return attribution && attribution.id !== 2 && attribution.codes ? [...attribution.codes] : [];
  } catch {
    return [];
  }
}

/** Whether `input` holds `data` (a tagged call) anywhere: the call itself, or wrapped. */
export const holdsCall = (input: string, data: string): boolean =>
  data.length > 2 && input.toLowerCase().includes(data.slice(2).toLowerCase());
