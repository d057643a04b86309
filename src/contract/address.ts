import { type Address, getAddress, isAddress } from 'viem';

/**
 * Reads an EVM address the way EIP-55 defines validity: hex in one case (all lower or all upper
 * after `0x`) carries no checksum and is valid; mixed case must match its checksum. Answers the
 * checksum form, which the service uses from then on, or undefined for anything else.
 */
export function readAddress(text: string): Address | undefined {
  const known = read.get(text);
  if (known !== undefined) return known ?? undefined;
  const answer = checksumOf(text);
  // Bounded: a client sending a new address each time only cycles the oldest ones out.
  if (read.size >= READ_CACHE_SIZE) read.delete(read.keys().next().value as string);
  read.set(text, answer ?? null);
  return answer;
}

/**
 * Addresses read recently, as given, with their answer (null: not an address). Every request
 * naming a user reads its address; validating and checksumming it again (keccak-256) each time
 * was a measurable share of a request.
 */
const read = new Map<string, Address | null>();
const READ_CACHE_SIZE = 10_000;

function checksumOf(text: string): Address | undefined {
  const trimmed = text.trim();
  if (!isAddress(trimmed, { strict: false })) return undefined;
  const hex = trimmed.slice(2);
  const oneCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  return oneCase || isAddress(trimmed) ? getAddress(trimmed) : undefined;
}
