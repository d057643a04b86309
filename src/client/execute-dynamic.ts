import type { DynamicAction, DynamicActionDataResponse } from '../contract/action.types';
import type {
  ActionValues,
  DataModeAction,
  DynamicActionResult,
  ExecuteDynamicOptions,
  FetchInit,
  FetchLike,
} from './client.types';
import { isDataResponse, isTransactionError, isTransactionResponse } from './response-kinds';

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
  let status: number;
  let text: string;
  try {
    // Called detached on purpose: browsers reject `fetch` invoked with `options` as `this`.
    const send: FetchLike | undefined = options.fetch ?? globalThis.fetch;
    if (typeof send !== 'function') return clientFailure('No fetch implementation available');
    const response = await send(url, init);
    status = response.status;
    text = await response.text();
  } catch (error) {
    return clientFailure(describeFailure(error));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return clientFailure(`The action answered with a body that is not JSON (HTTP ${status})`);
  }
  // Answers from outside any action (unknown path, bad JSON) are data envelopes in both modes.
  const expected = dataMode
    ? isDataResponse(body)
    : isDataResponse(body) || isTransactionResponse(body) || isTransactionError(body);
  if (!expected) {
    return clientFailure(`The action answered with an unexpected response shape (HTTP ${status})`);
  }
  return body as DynamicActionResult;
}

function dataRequest(
  action: DynamicAction,
  values: ActionValues,
  options: ExecuteDynamicOptions,
): PreparedRequest {
  const headers = withExtraHeaders(options.headers, {
    'content-type': 'application/json',
    ...(options.userAddress !== undefined && { 'x-user-address': options.userAddress }),
    ...(options.sourceChain !== undefined && { 'x-source-chain': String(options.sourceChain) }),
    ...(options.destinationChain !== undefined && {
      'x-destination-chain': String(options.destinationChain),
    }),
  });
  return {
    url: actionUrl(options.baseUrl, action.path),
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
  const headers = withExtraHeaders(
    options.headers,
    options.userAddress === undefined
      ? {}
      : { 'x-user-address': options.userAddress, 'x-wallet-address': options.userAddress },
  );
  const url = actionUrl(options.baseUrl, action.path);
  const search = query.toString();
  return {
    url: search === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${search}`,
    init: { method: 'POST', headers, signal: options.signal },
  };
}

function actionUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** Header names are case-insensitive: lower-case the caller's so ours replace theirs cleanly. */
function withExtraHeaders(
  extra: Readonly<Record<string, string>> | undefined,
  own: Record<string, string>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra ?? {})) headers[name.toLowerCase()] = value;
  return { ...headers, ...own };
}

function describeFailure(error: unknown): string {
  const name = isNamed(error) ? error.name : undefined;
  if (name === 'AbortError') return 'The request was aborted';
  if (name === 'TimeoutError') return 'The request timed out';
  const detail = error instanceof Error ? error.message : String(error);
  return `Network request failed: ${detail}`;
}

// Abort errors are DOMExceptions, which are not Error instances in every runtime.
function isNamed(value: unknown): value is { name: string } {
  return (
    typeof value === 'object' && value !== null && typeof Reflect.get(value, 'name') === 'string'
  );
}

function clientFailure(error: string): DynamicActionDataResponse<never> {
  return {
    success: false,
    error,
    message: 'The action could not be completed; check your connection and try again.',
    statusCode: 0,
  };
}
