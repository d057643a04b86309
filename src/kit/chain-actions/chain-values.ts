import {
  type AbiParameter,
  type Address,
  encodeAbiParameters,
  getAddress,
  isAddress,
  parseEther,
} from 'viem';

/*
 * Values of chain actions: addresses, amounts of the native coin and ABI arguments, read the way
 * the boot check, the document check and the /debug page's call builder all need them.
 */

/** Why `value` is not an EIP-55 checksummed address; undefined when it is one. */
export function checksumProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
    return `${JSON.stringify(value)} is not an address`;
  }
  const checksummed = getAddress(value);
  return value === checksummed
    ? undefined
    : `${value} is not EIP-55 checksummed (write ${checksummed})`;
}

/** Whole coins as the platform publishes them: a plain decimal, at most 18 decimals. */
const COINS = /^\d+(\.\d{1,18})?$/;

/**
 * Why `value` is not an amount of the native coin the client can convert to wei exactly (a
 * number written without exponent, at most 18 decimals, positive unless zero is allowed).
 */
export function amountProblem(value: unknown, allowZero = false): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return `${JSON.stringify(value)} is not a number`;
  }
  if (value < 0 || (!allowZero && value === 0)) {
    return `${value} is not ${allowZero ? 'zero or more' : 'positive'}`;
  }
  if (!COINS.test(String(value))) {
    return `${String(value)} is not a plain decimal of at most 18 decimals`;
  }
  return undefined;
}

/** Whole coins to wei; throws on what amountProblem refuses. */
export function coinsToWei(value: number): bigint {
  const problem = amountProblem(value, true);
  if (problem) throw new Error(`amount ${problem}`);
  return parseEther(String(value));
}

/** A text or number given for a Solidity integer: whole, within 2^53 when a number. */
function toInteger(value: unknown): bigint | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  return undefined;
}

/**
 * A value given for one ABI input (a declared default, a fixed value, an option, or what a user
 * typed) as viem encodes it; `sender` stands for the acting user's address when one is given.
 * Throws with the reason when the value does not fit the type: viem's encoder has the last word.
 */
export function toAbiValue(value: unknown, input: AbiParameter, sender?: Address): unknown {
  const { type } = input;
  let converted: unknown = value;
  if (/^u?int\d*$/.test(type)) converted = toInteger(value);
  else if (type === 'bool') {
    converted = typeof value === 'boolean' ? value : undefined;
  } else if (type === 'address') {
    if (value === 'sender') converted = sender ?? getAddress('0x'.padEnd(42, '0'));
    else converted = checksumProblem(value) ? undefined : value;
  } else if (type.startsWith('bytes') || type === 'string') {
    converted = typeof value === 'string' ? value : undefined;
  }
  if (converted === undefined) throw new Error(`${JSON.stringify(value)} is not a ${type}`);
  try {
    encodeAbiParameters([input], [converted]);
  } catch {
    throw new Error(`${JSON.stringify(value)} is not a ${type}`);
  }
  return converted;
}

/** Why a value does not fit an ABI input; undefined when it does. */
export function abiValueProblem(value: unknown, input: AbiParameter): string | undefined {
  try {
    toAbiValue(value, input);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
