import { type Address, type Hex, parseTransaction, serializeTransaction } from 'viem';
import { jsonSafe } from '../../contract/json-safe';

/** What the backend hands a wallet: an unsigned EIP-1559 transaction, filled as far as it knows. */
export interface UnsignedTransaction {
  chainId: number;
  to: Address;
  data?: Hex;
  value?: bigint;
  nonce?: number;
  gas?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

/**
 * How `serializedTransaction` is encoded (TX_SERIALIZATION): `rlp`, the hex a wallet signs, or
 * `json`, wagmi's `serialize` form of the request (bigints tagged), for clients that read the
 * fields.
 */
export type TransactionFormat = 'rlp' | 'json';

interface BigintJson {
  __type: 'bigint';
  value: string;
}

const isBigintJson = (value: unknown): value is BigintJson =>
  typeof value === 'object' &&
  value !== null &&
  (value as BigintJson).__type === 'bigint' &&
  typeof (value as BigintJson).value === 'string';

/** JSON with bigints as `{"__type":"bigint","value":"…"}`, as wagmi's `serialize` writes them. */
export function toWagmiJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'bigint' ? { __type: 'bigint', value: v.toString() } : v,
  );
}

/** The inverse, as wagmi's `deserialize` reads it. */
export function fromWagmiJson<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) => (isBigintJson(v) ? BigInt(v.value) : v)) as T;
}

/**
 * Serializes the transaction for `serializedTransaction`. `rlp`: the unsigned EIP-1559 encoding
 * (`0x02…`), where fields the backend left to the wallet encode empty (nonce reads back as 0).
 * `json`: the request object itself, with only the fields that are set.
 */
export function serializeUnsigned(tx: UnsignedTransaction, format: TransactionFormat): string {
  if (format === 'rlp') return serializeTransaction({ type: 'eip1559', ...tx });
  const request: Record<string, unknown> = { type: 'eip1559' };
  for (const [key, value] of Object.entries(tx)) if (value !== undefined) request[key] = value;
  return toWagmiJson(request);
}

/**
 * A `serializedTransaction` read back, in either format: the unsigned EIP-1559 RLP (`0x02…`, its
 * empty fields absent) or wagmi's JSON. Throws when it is neither.
 */
export function parseSerialized(serialized: string): Partial<UnsignedTransaction> {
  if (!serialized.startsWith('0x')) return fromWagmiJson<Partial<UnsignedTransaction>>(serialized);
  const { to, ...tx } = parseTransaction(serialized as Hex);
  return { ...tx, to: to ?? undefined };
}

/** Display form of call arguments: the kit's JSON-safe rule (bigints as decimal strings, dates as ISO text). */
export const displayValue = jsonSafe;
