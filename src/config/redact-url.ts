/** Settings whose value is a URL: `*_URL`, `*_URLS`, `RPC_URL_<chainId>`. */
const URL_SETTING = /(^|_)URLS?(_|$)/;
const SCHEME = /^\s*([a-z][a-z0-9+.-]*):\/\//i;
const SHOWN_MAX = 100;

/**
 * A URL as a message may show it: scheme and host, with credentials, path, query and fragment
 * replaced by markers (any of them may hold a password or an API key). Text that does not parse
 * as a URL shows its scheme at most.
 */
export function redactUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  // Without a host, what parsed as a scheme may be a user name ("admin:pw@10.0.0.1").
  if (!url?.host) {
    const scheme = SCHEME.exec(value)?.[1];
    return scheme
      ? `${scheme}://<unreadable, not shown>`
      : `<not shown, ${value.length} characters>`;
  }
  const credentials = url.username || url.password ? '<credentials>@' : '';
  const path = url.pathname && url.pathname !== '/' ? '/<path>' : '';
  const query = url.search ? '?<query>' : '';
  const fragment = url.hash ? '#<fragment>' : '';
  return `${url.protocol}//${credentials}${url.host}${path}${query}${fragment}`;
}

/**
 * How a setting's value appears in a boot error: URL-valued settings, and any value that looks
 * like a URL or carries credentials (`://`, `@`), through `redactUrl`; others quoted and shortened.
 */
export function shownValue(name: string, value: unknown): string {
  if (typeof value === 'string' && (URL_SETTING.test(name) || /:\/\/|@/.test(value)))
    return redactUrl(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text;
}
