import { parseTransaction } from 'viem';
import { fromWagmiJson, type UnsignedTransaction } from '../../evm/transaction/tx-serialization';
import { type Answer, header } from './conformance.request';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ENVELOPE_KEYS = ['success', 'data', 'message', 'error', 'statusCode', 'metadata'];
const EXECUTION_KEYS = ['serializedTransaction', 'chainId', 'abi', 'params', 'crossChain'];
const TX_ERROR_KEYS = ['error', 'code', 'message', 'data', 'details'];

const extraKeys = (body: Record<string, unknown>, allowed: readonly string[]): string[] =>
  Object.keys(body).filter((key) => !allowed.includes(key));

/** The envelope's `metadata`: timing and the request id the answer's header carries. */
export function metadataProblems(answer: Answer, sentAt: number, answeredAt: number): string[] {
  const { metadata } = answer.body as { metadata?: unknown };
  if (!isObject(metadata)) return ['the envelope has no metadata object'];
  const problems: string[] = [];
  const { timestamp, requestId, executionTime } = metadata;
  if (typeof timestamp !== 'number' || timestamp < sentAt || timestamp > answeredAt) {
    problems.push(`metadata.timestamp ${String(timestamp)} is not the answer's time in ms`);
  }
  if (typeof executionTime !== 'number' || !Number.isFinite(executionTime) || executionTime < 0) {
    problems.push(`metadata.executionTime ${String(executionTime)} is not a duration`);
  }
  if (typeof requestId !== 'string' || requestId === '') {
    problems.push('metadata.requestId is missing');
  } else if (requestId !== header(answer, 'x-request-id')) {
    problems.push(`metadata.requestId "${requestId}" differs from the x-request-id header`);
  }
  return problems;
}

/** The contract's DynamicActionDataResponse, its `statusCode` equal to the HTTP status. */
export function envelopeProblems(answer: Answer, success: boolean): string[] {
  const { body } = answer;
  if (!isObject(body)) return ['the answer is not a JSON object'];
  const problems = extraKeys(body, ENVELOPE_KEYS).map(
    (key) => `the envelope has "${key}", which the contract does not list`,
  );
  if (body.success !== success) problems.push(`success is ${String(body.success)}`);
  if (body.statusCode !== answer.status) {
    problems.push(`statusCode ${String(body.statusCode)} differs from the HTTP status`);
  }
  if (body.message !== undefined && typeof body.message !== 'string') {
    problems.push('message is not text');
  }
  if (!success && (typeof body.error !== 'string' || body.error === '')) {
    problems.push('error is not a non-empty text');
  }
  return problems;
}

/** The transaction-mode error body `{error, code, message?, data?, details?}` (no `success`). */
export function transactionErrorProblems(answer: Answer): string[] {
  const { body } = answer;
  if (!isObject(body)) return ['the answer is not a JSON object'];
  const problems = extraKeys(body, TX_ERROR_KEYS).map(
    (key) => `the error body has "${key}", which a transaction-mode error does not carry`,
  );
  if (typeof body.error !== 'string' || body.error === '') problems.push('error is not text');
  if (typeof body.code !== 'string' || body.code === '') problems.push('code is not text');
  if (body.details !== undefined && typeof body.details !== 'string') {
    problems.push('details is not text');
  }
  if (body.message !== undefined && typeof body.message !== 'string') {
    problems.push('message is not text');
  }
  return problems;
}

/** An error in the action's own shape. */
export const errorShapeProblems = (answer: Answer, dataMode: boolean): string[] =>
  dataMode ? envelopeProblems(answer, false) : transactionErrorProblems(answer);

/** The text a user is shown for an error: `error` in both shapes. */
export const errorText = (answer: Answer): string => {
  const { body } = answer;
  return isObject(body) && typeof body.error === 'string' ? body.error : '';
};

/** A serialized transaction read back as a wallet reads it: RLP hex, or wagmi's JSON. Throws. */
export function readSerialized(serialized: string): Partial<UnsignedTransaction> {
  return serialized.startsWith('0x')
    ? (parseTransaction(serialized as `0x${string}`) as Partial<UnsignedTransaction>)
    : fromWagmiJson<Partial<UnsignedTransaction>>(serialized);
}

/** The serialized transaction reads back (RLP or wagmi JSON) on the answer's chain. */
function serializedProblems(serialized: string, chainId: unknown): string[] {
  try {
    const tx = readSerialized(serialized);
    const problems: string[] = [];
    if (tx.chainId !== chainId) {
      problems.push(`the serialized transaction is for chain ${String(tx.chainId)}`);
    }
    if (typeof tx.to !== 'string') problems.push('the serialized transaction has no `to`');
    return problems;
  } catch (error) {
    return [`serializedTransaction does not parse: ${(error as Error).message.split('\n')[0]}`];
  }
}

/** The contract's ExecutionResponse, as the platform's SDK accepts it. */
export function executionProblems(answer: Answer): string[] {
  const { body } = answer;
  if (!isObject(body)) return ['the answer is not a JSON object'];
  const problems = extraKeys(body, EXECUTION_KEYS).map(
    (key) => `the answer has "${key}", which an ExecutionResponse does not list`,
  );
  const { serializedTransaction, chainId, abi, params } = body;
  if (!Number.isInteger(chainId)) problems.push('chainId is not an integer');
  if (typeof serializedTransaction !== 'string' || serializedTransaction === '') {
    problems.push('serializedTransaction is not a non-empty text');
  } else {
    problems.push(...serializedProblems(serializedTransaction, chainId));
  }
  if (abi !== undefined && !Array.isArray(abi)) problems.push('abi is not an array');
  if (
    params !== undefined &&
    (!isObject(params) || typeof params.functionName !== 'string' || !isObject(params.args))
  ) {
    problems.push('params is not {functionName, args}');
  }
  return problems;
}
