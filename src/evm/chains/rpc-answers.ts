import { BaseError } from 'viem';
import type { RpcFetch } from '../../outbound/http/upstream-bounds';

/**
 * A node answered with something that is not what JSON-RPC says the method returns (a block as
 * `"0x0"`, `null` from `eth_call`, a balance that is not hex…). A viem BaseError, so every reader
 * that handles a failing node handles it the same way: an RPC_ERROR naming the chain.
 */
export class RpcAnswerError extends BaseError {
  /** So a log line names this error, not viem's BaseError it extends. */
  override name = 'RpcAnswerError';

  constructor(what: string) {
    super(`The node's answer to ${what} has an unexpected shape`);
  }
}

type Rule = (result: unknown) => boolean;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A QUANTITY: hex, at most 256 bits (some nodes pad with zeros, which is harmless). */
const isQuantity: Rule = (value) => typeof value === 'string' && /^0x[0-9a-f]{1,64}$/i.test(value);

/** DATA: hex bytes, possibly none (`0x`). */
const isData: Rule = (value) => typeof value === 'string' && /^0x(?:[0-9a-f]{2})*$/i.test(value);

/** Fields viem converts to numbers: each, when present, must be a QUANTITY. */
const quantitiesOrAbsent = (record: Record<string, unknown>, fields: readonly string[]): boolean =>
  fields.every((field) => record[field] === undefined || isQuantity(record[field]));

const BLOCK_QUANTITIES = [
  'baseFeePerGas',
  'blobGasUsed',
  'difficulty',
  'excessBlobGas',
  'gasLimit',
  'gasUsed',
  'size',
  'totalDifficulty',
];
const RECEIPT_QUANTITIES = [
  'blobGasPrice',
  'blobGasUsed',
  'cumulativeGasUsed',
  'effectiveGasPrice',
  'gasUsed',
  'transactionIndex',
];

/** `null` is a block or receipt the node does not have: an answer, which viem reports itself. */
const isBlock: Rule = (value) =>
  value === null ||
  (isRecord(value) &&
    isQuantity(value.number) &&
    isQuantity(value.timestamp) &&
    quantitiesOrAbsent(value, BLOCK_QUANTITIES));

const isReceipt: Rule = (value) =>
  value === null ||
  (isRecord(value) &&
    isQuantity(value.blockNumber) &&
    (value.status === undefined || value.status === '0x0' || value.status === '0x1') &&
    quantitiesOrAbsent(value, RECEIPT_QUANTITIES));

/** The result each method the service uses must have; other methods are not checked. */
const RULES: Record<string, Rule> = {
  eth_blockNumber: isQuantity,
  eth_chainId: isQuantity,
  eth_estimateGas: isQuantity,
  eth_gasPrice: isQuantity,
  eth_getBalance: isQuantity,
  eth_getTransactionCount: isQuantity,
  eth_maxPriorityFeePerGas: isQuantity,
  eth_call: isData,
  eth_getCode: isData,
  eth_getStorageAt: isData,
  eth_getBlockByHash: isBlock,
  eth_getBlockByNumber: isBlock,
  eth_getTransactionReceipt: isReceipt,
};

export interface SentCall {
  id: unknown;
  method: string;
}

/** The calls of a request body as viem sends it (JSON text); undefined for anything else. */
function sentCalls(body: string): SentCall[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const calls = Array.isArray(parsed) ? parsed : [parsed];
  if (!calls.every((call) => isRecord(call) && typeof call.method === 'string')) return undefined;
  return calls.map((call: Record<string, unknown>) => ({
    id: call.id,
    method: String(call.method),
  }));
}

/**
 * Checks a successful HTTP answer of a node against the request it answers, before viem reads it:
 * valid JSON, one answer per call with the ids sent (viem pairs a batch's answers by id), and each
 * result of the shape its method returns. A batch may be answered by a single JSON-RPC error.
 * Returns the text viem is to read: the same, or with oversized errors cut (boundErrors).
 */
export function checkRpcAnswers(requestBody: unknown, text: string): string {
  const sent = typeof requestBody === 'string' ? sentCalls(requestBody) : undefined;
  if (!sent) return text;
  const batch = (requestBody as string).trimStart().startsWith('[');
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new RpcAnswerError(named(sent));
  }
  return checkParsedAnswers(sent, batch, answer) ? JSON.stringify(answer) : text;
}

/**
 * checkRpcAnswers on an answer already parsed (RpcBatch reads the one viem parsed): throws an
 * RpcAnswerError where the shape is wrong; cuts oversized errors in place, true when it did.
 */
export function checkParsedAnswers(
  sent: readonly SentCall[],
  batch: boolean,
  answer: unknown,
): boolean {
  if (batch && isRecord(answer) && answer.error !== undefined) return boundErrors([answer]);
  const answers = batch ? answer : [answer];
  if (!Array.isArray(answers) || answers.length !== sent.length) {
    throw new RpcAnswerError(named(sent));
  }
  const byId = new Map(sent.map((call) => [call.id, call]));
  for (const one of answers) {
    const call = isRecord(one) ? byId.get(one.id) : undefined;
    if (!call || !isRecord(one)) throw new RpcAnswerError(named(sent));
    byId.delete(one.id);
    if (one.error !== undefined) continue;
    const rule = RULES[call.method];
    if (!('result' in one) || (rule && !rule(one.result))) throw new RpcAnswerError(call.method);
  }
  return boundErrors(answers as unknown[]);
}

/** Revert data kept: an Error(string)'s header and its first 2 KiB of text, as hex. */
const MAX_ERROR_DATA = 2 + 2 * (4 + 64 + 4096);
const MAX_ERROR_MESSAGE = 1_000;

/**
 * Cuts each JSON-RPC error's message and revert data (also when nested as `data.data`) before
 * viem reads them: viem copies both into the messages of the errors it builds, so a node's
 * megabyte-long revert would cost megabytes per request. Nothing past these bounds is shown
 * (revert-reason reads a bounded prefix). True when something was cut.
 */
function boundErrors(answers: unknown[]): boolean {
  let cut = false;
  const bound = (record: Record<string, unknown>, field: string, max: number): void => {
    const value = record[field];
    if (typeof value === 'string' && value.length > max) {
      record[field] = value.slice(0, max);
      cut = true;
    }
  };
  for (const one of answers) {
    const error = isRecord(one) ? one.error : undefined;
    if (!isRecord(error)) continue;
    bound(error, 'message', MAX_ERROR_MESSAGE);
    bound(error, 'data', MAX_ERROR_DATA);
    if (isRecord(error.data)) {
      bound(error.data, 'data', MAX_ERROR_DATA);
      bound(error.data, 'message', MAX_ERROR_MESSAGE);
    }
  }
  return cut;
}

export const named = (sent: readonly SentCall[]): string =>
  sent.length === 1 ? sent[0].method : `a batch of ${sent.length} calls`;

/** Each answer's shape is checked before viem reads it (its formatters trust what nodes send). */
export function checkedFetch(fetchFn: RpcFetch): RpcFetch {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (!response.ok) return response;
    const text = checkRpcAnswers(init?.body, await response.text());
    const { status, statusText, headers } = response;
    return new Response(text, { status, statusText, headers });
  };
}
