import type { CrossChainInfo, DynamicActionDataResponse, ExecutionResponse } from './action.types';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const optionalText = (value: unknown): boolean => value === undefined || typeof value === 'string';

/** The SDK also accepts a gas limit as a number: a whole one, exact in a JS number. */
const isGasNumber = (value: unknown): boolean =>
  Number.isSafeInteger(value) && (value as number) >= 0;

/** The platform's `crossChain` block: a destination chain id and, optionally, text details. */
export function isCrossChainInfo(value: unknown): value is CrossChainInfo {
  return (
    isObject(value) &&
    Number.isSafeInteger(value.destinationChainId) &&
    (value.destinationChainId as number) > 0 &&
    (optionalText(value.destinationGasLimit) || isGasNumber(value.destinationGasLimit)) &&
    optionalText(value.destinationRecipient) &&
    optionalText(value.estimatedBridgeFee)
  );
}

/** Anything carrying a serialized transaction and a chain id, well formed or not. */
export function hasTransactionShape(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.serializedTransaction === 'string' &&
    Number.isInteger(value.chainId)
  );
}

/** A transaction-mode answer: a serialized transaction, its chain and an optional crossChain. */
export function isExecutionResponse(value: unknown): value is ExecutionResponse {
  return (
    hasTransactionShape(value) &&
    ((value as ExecutionResponse).crossChain === undefined ||
      isCrossChainInfo((value as ExecutionResponse).crossChain))
  );
}

/** A data-mode envelope (success or error). */
export function isDataResponse(value: unknown): value is DynamicActionDataResponse {
  return isObject(value) && typeof value.success === 'boolean';
}
