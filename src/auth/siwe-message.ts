import { type Address, getAddress } from 'viem';
import { createSiweMessage, parseSiweMessage, type SiweMessage } from 'viem/siwe';

/** A sign-in message with every field sign-in needs. */
export type StrictSiweMessage = SiweMessage & {
  address: Address;
  chainId: number;
  domain: string;
  uri: string;
  nonce: string;
  issuedAt: Date;
};

/** What a message this service writes for a wallet to sign names (writeSiweMessage). */
export interface SiweMessageFields {
  address: Address;
  chainId: number;
  /** The host the verifier answers for (SiweVerifier.messageOrigin) and its URI. */
  domain: string;
  uri: string;
  nonce: string;
  statement: string;
  issuedAt: Date;
  expirationTime?: Date;
}

/**
 * A sign-in message written by the service itself (a blink's `message` action, src/blinks): viem's
 * createSiweMessage, the writer parseStrict compares every message with, so what it writes is
 * read back byte for byte, version 1.
 */
export function writeSiweMessage(fields: SiweMessageFields): string {
  return createSiweMessage({ ...fields, address: getAddress(fields.address), version: '1' });
}

/**
 * The message's fields, or why it is not an EIP-4361 message this service reads. viem's parser
 * is lenient: a line out of order is dropped, a malformed time becomes an Invalid Date (that
 * passes every comparison), unknown lines are ignored. So the message must be, byte for byte,
 * the one viem builds from the fields it parsed: whatever the parser dropped or bent shows as a
 * difference. Times are written as viem writes them (`toISOString`: UTC with milliseconds). One
 * leniency: an address all in lower case (EIP-55 without its checksum, as wallets often give it,
 * and /debug sends it) reads as the checksummed address it is.
 */
export function parseStrict(message: string): StrictSiweMessage | { invalid: string } {
  const parsed = parseSiweMessage(message);
  const { address, chainId, domain, uri, nonce, issuedAt, version } = parsed;
  if (!address || !chainId || !domain || !uri || !nonce || !issuedAt || !version) {
    return {
      invalid:
        'the message lacks its address, chain, domain, URI, version, nonce or issued-at time, or has them out of order',
    };
  }
  const fields = { ...parsed, address, chainId, domain, uri, nonce, issuedAt, version };
  let rebuilt: string;
  try {
    rebuilt = createSiweMessage(fields);
  } catch {
    // An Invalid Date (toISOString throws), a version other than 1, a nonce or domain viem refuses.
    return { invalid: 'a field of the message is malformed (a time, the version, the nonce)' };
  }
  const written = withChecksum(message, address);
  if (rebuilt !== written) {
    return {
      invalid: `the message is not in EIP-4361's exact form (line ${firstDifference(written, rebuilt)})`,
    };
  }
  return { ...fields, address: getAddress(address) };
}

/** The message with its address line checksummed when it is the address in lower case. */
function withChecksum(message: string, address: Address): string {
  const lines = message.split('\n');
  if (lines[1] !== address.toLowerCase()) return message;
  lines[1] = getAddress(address);
  return lines.join('\n');
}

/** The first line (from 1) where the two texts differ: what the client should look at. */
function firstDifference(a: string, b: string): number {
  const [left, right] = [a.split('\n'), b.split('\n')];
  const line = left.findIndex((text, i) => text !== right[i]);
  return (line === -1 ? left.length : line) + 1;
}
