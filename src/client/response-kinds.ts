import type { TransactionErrorBody } from '../contract/action.types';

// The guards live beside the server's interceptor, which relies on the same definitions.
export {
  isDataResponse,
  isExecutionResponse as isTransactionResponse,
} from '../contract/response-guards';

/** A transaction-mode error body: `{error, code, message?, data?, details?}`, with no `success` field. */
export function isTransactionError(value: unknown): value is TransactionErrorBody {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const body = value as Record<string, unknown>;
  return typeof body.error === 'string' && typeof body.code === 'string' && !('success' in body);
}
