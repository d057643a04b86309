/** Settings whose value is a URL: `*_URL`, `*_URLS`, `RPC_URL_<chainId>`. */
const urlSetting = /(^|_)URLS?(_|$)/;
/** Settings whose value is a secret (`WEBHOOK_SECRET`): never shown, not even in part. */
const secretSetting = /(^|_)(SECRET|PASSWORD|TOKEN)(_|$)/;
/** scheme://, authority, path, query, fragment: read by position when `new URL` cannot parse. */
const urlParts = /^\s*(?:([a-z][a-z0-9+.-]*):\/\/)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?(#.*)?$/is;
const shownMax = 100;

interface Parts {
  scheme?: string;
  credentials: boolean;
  host: string;
  path: string;
  query: boolean;
  fragment: boolean;
}

function parse(value: string): Parts {
  try {
    const url = new URL(value.trim());
    if (url.host) {
      return {
        scheme: url.protocol.slice(0, -1),
        credentials: Boolean(url.username || url.password),
        host: url.host,
        path: url.pathname,
        query: url.search !== '',
        fragment: url.hash !== '',
      };
    }
  } catch {
    // Not a URL to the WHATWG parser: read its parts by position below.
  }
  const [, scheme, authority = '', path = '', query, fragment] = urlParts.exec(value) ?? [];
  const at = authority.lastIndexOf('@');
  // "user:password" typed without "@" would otherwise show the password as a port.
  const host = authority.slice(at + 1).replace(/:(?!\d*$).*$/s, ':<not shown>');
  return { scheme, credentials: at >= 0, host, path, query: !!query, fragment: !!fragment };
}

/**
 * A URL as a message may show it: scheme and host, with credentials, path, query and fragment
 * replaced by markers (any of them may hold a password or an API key). Text the URL parser
 * refuses is cut the same way by position, so it is never echoed in full either.
 */
export function redactUrl(value: string): string {
  const { scheme, credentials, host, path, query, fragment } = parse(value);
  const shownHost = JSON.stringify(host.slice(0, shownMax)).slice(1, -1);
  return [
    scheme ? `${scheme}://` : '',
    credentials ? '<credentials>@' : '',
    shownHost,
    path && path !== '/' ? '/<path>' : '',
    query ? '?<query>' : '',
    fragment ? '#<fragment>' : '',
  ].join('');
}

/**
 * How a setting's value appears in a boot error: URL-valued settings, and any value that looks
 * like a URL or carries credentials (`://`, `@`), through `redactUrl`; secrets not at all; others
 * quoted and shortened.
 */
export function shownValue(name: string, value: unknown): string {
  if (secretSetting.test(name)) return '<not shown>';
  if (typeof value === 'string' && (urlSetting.test(name) || /:\/\/|@/.test(value)))
    return redactUrl(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > shownMax ? `${text.slice(0, shownMax)}…` : text;
}
