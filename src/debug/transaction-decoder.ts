import {
  type Abi,
  type AbiFunction,
  decodeFunctionData,
  erc20Abi,
  erc721Abi,
  getAddress,
  type Hex,
  isHex,
  numberToHex,
  parseTransaction,
  slice,
} from 'viem';
import { jsonSafe } from '../contract/json-safe';
import { fromWagmiJson } from '../evm/transaction/tx-serialization';

/** The fields of a transaction the page shows; quantities as decimal text (exact beyond 2^53). */
interface TransactionFields {
  type?: string;
  chainId?: number;
  to?: string | null;
  value?: bigint;
  data?: Hex;
  nonce?: number;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
}

export interface DecodedArgument {
  name: string;
  type: string;
  value: unknown;
}

export interface DecodedCall {
  functionName: string;
  args: DecodedArgument[];
  /** Which ABI named the function: the answer's own, or a standard one tried when it gave none. */
  abi: 'answer' | 'erc20' | 'erc721';
}

export interface DecodedTransaction {
  format: 'rlp' | 'json';
  fields: Record<string, string | number | null>;
  /** The first four bytes of the call data, when there is call data. */
  selector?: Hex;
  call?: DecodedCall;
  /** The fields as `eth_sendTransaction` takes them (quantities in hex); the wallet adds `from`. */
  walletRequest: Record<string, string>;
}

export class DecodeError extends Error {}

const QUANTITIES = ['value', 'gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const;

/** Reads the two serializations the kit writes (tx-serialization.ts): RLP hex, or wagmi's JSON. */
function readFields(serialized: string): { format: 'rlp' | 'json'; tx: TransactionFields } {
  const text = serialized.trim();
  if (text.startsWith('{')) {
    try {
      return { format: 'json', tx: fromWagmiJson<TransactionFields>(text) };
    } catch {
      throw new DecodeError('serializedTransaction is neither RLP hex nor valid JSON');
    }
  }
  if (!isHex(text)) throw new DecodeError('serializedTransaction is neither 0x hex nor JSON');
  try {
    return { format: 'rlp', tx: parseTransaction(text) };
  } catch (error) {
    const reason = (error as { shortMessage?: string }).shortMessage ?? 'unreadable';
    throw new DecodeError(`serializedTransaction is not a transaction viem can parse: ${reason}`);
  }
}

function decodeCall(data: Hex, abi: Abi | undefined): DecodedCall | undefined {
  const candidates: [DecodedCall['abi'], Abi][] = abi
    ? [['answer', abi]]
    : [
        ['erc20', erc20Abi],
        ['erc721', erc721Abi],
      ];
  for (const [source, candidate] of candidates) {
    try {
      const { functionName, args = [] } = decodeFunctionData({ abi: candidate, data });
      const item = candidate.find(
        (entry): entry is AbiFunction =>
          entry.type === 'function' &&
          entry.name === functionName &&
          entry.inputs.length === args.length,
      );
      return {
        functionName,
        abi: source,
        args: args.map((value, i) => ({
          name: item?.inputs[i]?.name || `arg${i}`,
          type: item?.inputs[i]?.type ?? 'unknown',
          value: jsonSafe(value),
        })),
      };
    } catch {
      // Not a function of this ABI: the page shows the selector instead.
    }
  }
  return undefined;
}

/** Decodes an answer's transaction and, with an ABI (or a standard one), its call. */
export function decodeTransaction(serialized: string, abi?: Abi): DecodedTransaction {
  const { format, tx } = readFields(serialized);
  const fields: DecodedTransaction['fields'] = {
    type: tx.type ?? null,
    chainId: tx.chainId ?? null,
    to: tx.to ? getAddress(tx.to) : null,
    nonce: tx.nonce ?? null,
    data: tx.data ?? null,
  };
  const walletRequest: Record<string, string> = {};
  if (tx.to) walletRequest.to = getAddress(tx.to);
  if (tx.data) walletRequest.data = tx.data;
  for (const key of QUANTITIES) {
    const value = tx[key];
    fields[key] = value === undefined ? null : value.toString();
    if (value !== undefined) walletRequest[key] = numberToHex(value);
  }
  if (fields.value === null) fields.value = '0';
  const hasCall = tx.data !== undefined && tx.data.length >= 10;
  return {
    format,
    fields,
    selector: hasCall ? slice(tx.data as Hex, 0, 4) : undefined,
    call: hasCall ? decodeCall(tx.data as Hex, abi) : undefined,
    walletRequest,
  };
}
