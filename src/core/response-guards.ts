import type { DynamicActionDataResponse, ExecutionResponse } from './action.types';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A transaction-mode answer: a serialized transaction and the chain it runs on. */
export function isExecutionResponse(value: unknown): value is ExecutionResponse {
  return (
    isObject(value) &&
    typeof value.serializedTransaction === 'string' &&
    Number.isInteger(value.chainId)
  );
}

/** A data-mode envelope (success or error). */
export function isDataResponse(value: unknown): value is DynamicActionDataResponse {
  return isObject(value) && typeof value.success === 'boolean';
}
