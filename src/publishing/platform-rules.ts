/**
 * The limits and small predicates of the platform's `createMetadata` (`@sherrylinks/sdk`,
 * metadataValidator.ts and dynamicActionValidator.ts of the 2.27–2.28 sources), shared by the
 * document and action checks. Written from those rules, not copied: the checker reports every
 * problem where the SDK throws on the first.
 */
export const PLATFORM_LIMITS = {
  /** `title` and every other plain string field. */
  maxStringLength: 1000,
  /** `url`, `icon`, `baseUrl`. */
  maxUrlLength: 2000,
  maxDescriptionLength: 2000,
  maxActions: 4,
} as const;

/**
 * Headers the platform's proxy (and the contract's clients) send cross-origin: a deployment's
 * CORS preflight must allow each. Kept apart from the service's own list (app.setup.ts), so the
 * conformance kit and `npm run check` test that list rather than repeat it.
 */
export const PROXY_HEADERS = [
  'content-type',
  'x-user-address',
  'x-wallet-address',
  'x-source-chain',
  'x-chain-id',
  'x-destination-chain',
  'x-sherry-proxy',
  'x-sherry-version',
  'x-timestamp',
];

/** Action types createMetadata knows; this checker looks inside `dynamic` ones only. */
export const PLATFORM_ACTION_TYPES = ['blockchain', 'transfer', 'http', 'dynamic', 'flow'];

/** `{}` from JSON or an object literal: what the SDK's isPlainObject accepts. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.prototype.toString.call(value) === '[object Object]' &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/** A required non-empty string within `max` characters; undefined when it is one. */
export function stringProblem(value: unknown, field: string, max: number): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return `${field} is missing or empty`;
  if (value.length > max) return `${field} is longer than ${max} characters (${value.length})`;
  return undefined;
}

/** An absolute URL whose scheme is http or https; undefined when it is one. */
export function httpUrlProblem(value: string, field: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} is not an absolute URL`;
  }
  return url.protocol === 'http:' || url.protocol === 'https:'
    ? undefined
    : `${field} must use http or https, not ${url.protocol}`;
}

/** A required http(s) URL field within the URL limit: at most one problem. */
export function urlFieldProblem(value: unknown, field: string): string | undefined {
  return (
    stringProblem(value, field, PLATFORM_LIMITS.maxUrlLength) ??
    httpUrlProblem(value as string, field)
  );
}
