import type { DynamicAction, DynamicActionDataResponse } from '../contract/action.types';
import type {
  ActionValues,
  DataModeAction,
  DynamicActionResult,
  ExecuteDynamicOptions,
  FetchInit,
} from './client.types';
import { isDataResponse, isTransactionError, isTransactionResponse } from './response-kinds';
import { clientFailure, exchange, serviceUrl, withExtraHeaders } from './transport';

interface PreparedRequest {
  url: string;
  init: FetchInit;
}

/**
 * Runs a dynamic action as the contract describes: data mode POSTs `{params}` as JSON, transaction
 * mode POSTs the values in the query string. Never throws: a network or client failure comes back
 * as a data-mode envelope with `statusCode: 0`.
 */
export function executeDynamic<T = unknown>(
  action: DataModeAction,
  values: ActionValues,
  options: ExecuteDynamicOptions,
): Promise<DynamicActionDataResponse<T>>;
export function executeDynamic<T = unknown>(
  action: DynamicAction,
  values: ActionValues,
  options: ExecuteDynamicOptions,
): Promise<DynamicActionResult<T>>;
export async function executeDynamic(
  action: DynamicAction,
  values: ActionValues,
  options: ExecuteDynamicOptions,
): Promise<DynamicActionResult> {
  const dataMode = action.responseType === 'data';
  const { url, init } = dataMode
    ? dataRequest(action, values, options)
    : transactionRequest(action, values, options);
  const answer = await exchange(url, init, options.fetch);
  if (!answer.ok) return answer.failure;
  const { status, body } = answer;
  // Answers from outside any action (unknown path, bad JSON) are data envelopes in both modes.
  const expected = dataMode
    ? isDataResponse(body)
    : isDataResponse(body) || isTransactionResponse(body) || isTransactionError(body);
  if (!expected) {
    return clientFailure(`The action answered with an unexpected response shape (HTTP ${status})`);
  }
  const intent = answer.header(INTENT_HEADER);
  if (intent !== undefined && isTransactionResponse(body)) intents.set(body, intent);
  return body as DynamicActionResult;
}

const INTENT_HEADER = 'x-action-intent';
const intents = new WeakMap<object, string>();

/**
 * The intent of a transaction answer executeDynamic returned (its `X-Action-Intent` header):
 * pass it to reportTransaction with the wallet's hash. Undefined for any other result, or when
 * the service recorded none (no user address sent; a service without outcomes).
 */
export function intentOf(result: DynamicActionResult): string | undefined {
  return typeof result === 'object' && result !== null ? intents.get(result) : undefined;
}

/** The session of signIn, as `Authorization: Bearer` (the service then knows the user is proven). */
function bearer(options: ExecuteDynamicOptions): Record<string, string> {
  return options.session ? { authorization: `Bearer ${options.session.token}` } : {};
}

function dataRequest(
  action: DynamicAction,
  values: ActionValues,
  options: ExecuteDynamicOptions,
): PreparedRequest {
  const headers = withExtraHeaders(options.headers, {
    'content-type': 'application/json',
    ...bearer(options),
    ...(options.userAddress !== undefined && { 'x-user-address': options.userAddress }),
    ...(options.sourceChain !== undefined && { 'x-source-chain': String(options.sourceChain) }),
    ...(options.destinationChain !== undefined && {
      'x-destination-chain': String(options.destinationChain),
    }),
  });
  return {
    url: serviceUrl(options.baseUrl, action.path),
    init: {
      method: 'POST',
      headers,
      body: JSON.stringify({ params: values }),
      signal: options.signal,
    },
  };
}

function transactionRequest(
  action: DynamicAction,
  values: ActionValues,
  options: ExecuteDynamicOptions,
): PreparedRequest {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) query.append(name, String(value));
  }
  // The context comes last so that a parameter of the same name cannot impersonate it.
  if (options.userAddress !== undefined) query.set('userAddress', options.userAddress);
  if (options.sourceChain !== undefined) query.set('chainId', String(options.sourceChain));
  if (options.destinationChain !== undefined) {
    query.set('destinationChain', String(options.destinationChain));
  }
  const headers = withExtraHeaders(options.headers, {
    ...bearer(options),
    ...(options.userAddress !== undefined && {
      'x-user-address': options.userAddress,
      'x-wallet-address': options.userAddress,
    }),
  });
  const url = serviceUrl(options.baseUrl, action.path);
  const search = query.toString();
  return {
    url: search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`,
    init: { method: 'POST', headers, signal: options.signal },
  };
}
