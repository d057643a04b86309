/** What `npm run check` was asked to do. */
export interface CheckOptions {
  /** The deployment's base URL, without a trailing slash. */
  baseUrl: string;
  /** Every answer must arrive within this (the contract's pre-production target: 2 s). */
  maxMs: number;
  /** The Origin the CORS probes send: another origin than the deployment's. */
  origin: string;
  /** `--action <path>` (repeatable): only these actions and the mini-apps holding them. */
  actions?: readonly string[];
}

export const USAGE =
  'usage: npm run check -- <base-url> [--max-ms <ms>] [--origin <url>] [--action <path>]...';

export const DEFAULT_MAX_MS = 2000;
export const DEFAULT_ORIGIN = 'https://mini-app-check.example';

export class UsageError extends Error {}

function httpUrl(text: string | undefined, name: string): URL {
  let url: URL;
  try {
    url = new URL(text ?? '');
  } catch {
    throw new UsageError(`${name} is not a URL: ${text ?? '(none)'}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${name} must be an http(s) URL: ${text}`);
  }
  return url;
}

/** Reads the command line (after `--`); a UsageError names what is wrong. */
export function parseOptions(args: readonly string[]): CheckOptions {
  const positional: string[] = [];
  let maxMs = DEFAULT_MAX_MS;
  let origin = DEFAULT_ORIGIN;
  const actions: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--max-ms') {
      maxMs = Number(args[++i]);
      if (!Number.isSafeInteger(maxMs) || maxMs <= 0) {
        throw new UsageError(`--max-ms needs a positive whole number of milliseconds`);
      }
    } else if (arg === '--origin') origin = httpUrl(args[++i], '--origin').origin;
    else if (arg === '--action') {
      const path = args[++i];
      if (path === undefined || !path.startsWith('/')) {
        throw new UsageError(`--action needs an action path such as /api/calculator`);
      }
      actions.push(path);
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (positional.length !== 1) throw new UsageError('one base URL is needed');
  const base = httpUrl(positional[0], 'the base URL');
  if (base.search || base.hash) throw new UsageError('the base URL takes no query or fragment');
  return {
    baseUrl: base.href.replace(/\/+$/, ''),
    maxMs,
    origin,
    ...(actions.length > 0 && { actions }),
  };
}
