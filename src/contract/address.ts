import { type Address, getAddress, isAddress } from 'viem';

/**
 * Reads an EVM address the way EIP-55 defines validity: hex in one case (all lower or all upper
 * after `0x`) carries no checksum and is valid; mixed case must match its checksum. Answers the
 * checksum form, which the service uses from then on, or undefined for anything else.
 */
export function readAddress(text: string): Address | undefined {
  const trimmed = text.trim();
  if (!isAddress(trimmed, { strict: false })) return undefined;
  const hex = trimmed.slice(2);
  const oneCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  return oneCase || isAddress(trimmed) ? getAddress(trimmed) : undefined;
}
