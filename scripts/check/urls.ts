/** Hosts that may be served over plain http: the machine itself. */
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

export const isLocal = (url: URL): boolean => LOCAL_HOSTS.has(url.hostname);

/** Plain http is for the machine itself only: a platform loads mini-apps over https. */
export function httpsProblem(url: URL, name: string): string | undefined {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLocal(url))) return undefined;
  return `${name} is not https: ${url.href}`;
}

/**
 * Problems of one URL a document publishes: it must be https (outside localhost) and point at the
 * deployment itself, or the platform would call (or show) another host than the one checked.
 */
export function publishedUrlProblems(text: unknown, base: URL, name: string): string[] {
  if (typeof text !== 'string') return [`${name} is missing`];
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [`${name} is not a URL: ${text}`];
  }
  const problems: string[] = [];
  const https = httpsProblem(url, name);
  if (https) problems.push(https);
  if (url.origin !== base.origin) {
    problems.push(`${name} points at ${url.origin}, not the deployment (${base.origin})`);
  }
  return problems;
}

/** An action's `path`: a URL of its own, or a path under the document's `baseUrl`. */
export function actionUrl(path: string, baseUrl: unknown): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${typeof baseUrl === 'string' ? baseUrl.replace(/\/+$/, '') : ''}${path}`;
}
