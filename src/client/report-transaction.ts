import type { DynamicActionDataResponse } from '../contract/action.types';
import type { FetchInit, TransactionIntentView, TransactionReportOptions } from './client.types';
import { isDataResponse } from './response-kinds';
import { clientFailure, exchange, serviceUrl, withExtraHeaders } from './transport';

/**
 * Tells the service the hash the wallet sent for a transaction answer (its intent: intentOf),
 * so the service can verify it on the chain and the action's team learn the outcome. Safe to
 * repeat with the same hash. Never throws: a network failure is an envelope with statusCode 0.
 */
export function reportTransaction(
  intent: string,
  hash: string,
  options: TransactionReportOptions,
): Promise<DynamicActionDataResponse<TransactionIntentView>> {
  return call(intent, options, {
    method: 'POST',
    headers: withExtraHeaders(options.headers, { 'content-type': 'application/json' }),
    body: JSON.stringify({ hash }),
    signal: options.signal,
  });
}

/** Where an intent stands: `answered`, `submitted`, then `confirmed`, `reverted`, `replaced` or `expired`. */
export function transactionOutcome(
  intent: string,
  options: TransactionReportOptions,
): Promise<DynamicActionDataResponse<TransactionIntentView>> {
  return call(intent, options, {
    method: 'GET',
    headers: withExtraHeaders(options.headers, {}),
    signal: options.signal,
  });
}

async function call(
  intent: string,
  options: TransactionReportOptions,
  init: FetchInit,
): Promise<DynamicActionDataResponse<TransactionIntentView>> {
  const url = serviceUrl(options.baseUrl, `/api/transactions/${encodeURIComponent(intent)}`);
  const answer = await exchange(url, init, options.fetch);
  if (!answer.ok) return answer.failure;
  if (!isDataResponse(answer.body)) {
    return clientFailure(
      `The service answered with an unexpected response shape (HTTP ${answer.status})`,
    );
  }
  return answer.body as DynamicActionDataResponse<TransactionIntentView>;
}
