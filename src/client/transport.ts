import type { DynamicActionDataResponse } from '../contract/action.types';
import type { FetchInit, FetchLike } from './client.types';

/** What one call to the service gave back, parsed; or why there is nothing to read. */
export type Exchange =
  | { ok: true; status: number; body: unknown; header: (name: string) => string | undefined }
  | { ok: false; failure: DynamicActionDataResponse<never> };

/** Sends one request and parses its JSON answer; never throws (a failure is a statusCode-0 envelope). */
export async function exchange(
  url: string,
  init: FetchInit,
  fetchImpl: FetchLike | undefined,
): Promise<Exchange> {
  let status: number;
  let text: string;
  let header: (name: string) => string | undefined;
  try {
    // Called detached on purpose: browsers reject `fetch` invoked with `options` as `this`.
    const send: FetchLike | undefined = fetchImpl ?? globalThis.fetch;
    if (typeof send !== 'function') return failed('No fetch implementation available');
    const response = await send(url, init);
    status = response.status;
    text = await response.text();
    header = (name) => response.headers?.get(name) ?? undefined;
  } catch (error) {
    return failed(describeFailure(error));
  }
  try {
    return { ok: true, status, body: JSON.parse(text) as unknown, header };
  } catch {
    return failed(`The action answered with a body that is not JSON (HTTP ${status})`);
  }
}

export function serviceUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

/** Header names are case-insensitive: lower-case the caller's so ours replace theirs cleanly. */
export function withExtraHeaders(
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

export function clientFailure(error: string): DynamicActionDataResponse<never> {
  return {
    success: false,
    error,
    message: 'The action could not be completed; check your connection and try again.',
    statusCode: 0,
  };
}

const failed = (error: string): Exchange => ({ ok: false, failure: clientFailure(error) });
