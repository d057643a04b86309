import { isURL } from './validator-subset';
import { type Env, httpUrlRule } from './env';
import { shownValue } from './redact-url';

/** Injection token of the MiniAppsConfig the mini-app registry reads. */
export const MINI_APPS_CONFIG = Symbol('MINI_APPS_CONFIG');

/** The platform's limit on `url` and `icon`. */
export const MAX_PUBLISHED_URL_LENGTH = 2000;

/** What configuration sets for one mini-app; unset fields keep the defaults. */
export interface MiniAppOverrides {
  /** `MINI_APP_<ID>_URL`: the document's `url`. */
  url?: string;
  /** `MINI_APP_<ID>_ICON_URL`: the document's `icon`. */
  iconUrl?: string;
}

/**
 * Per-mini-app overrides of the published document's URLs (`MINI_APP_<ID>_URL`,
 * `MINI_APP_<ID>_ICON_URL`), so a deployment points each mini-app at its own host without editing
 * code.
 */
export interface MiniAppsConfig {
  /** By `<ID>` (the mini-app id upper-cased, `-` as `_`); the registry refuses unknown ones. */
  overrides: ReadonlyMap<string, MiniAppOverrides>;
}

// `_ICON_URL` is tried first, so `MINI_APP_TOOLS_ICON_URL` is the icon of `tools` (ids ending in
// `-icon` are refused at boot for that reason).
const ICON_URL = /^MINI_APP_([A-Z0-9]+(?:_[A-Z0-9]+)*)_ICON_URL$/;
const URL_VAR = /^MINI_APP_([A-Z0-9]+(?:_[A-Z0-9]+)*)_URL$/;

/**
 * Whether a URL can be published in a mini-app document: absolute http(s) and within the platform's
 * 2000-character limit. Shared by the boot check and the overrides.
 */
export const isPublishableUrl = (value: string): boolean =>
  value.length <= MAX_PUBLISHED_URL_LENGTH && isURL(value, httpUrlRule);

/**
 * Reads every `MINI_APP_<ID>_URL` and `MINI_APP_<ID>_ICON_URL`: absolute http(s) URLs of at most
 * 2000 characters. Any other MINI_APP_* variable is a typo and stops the boot, as a bad value does.
 */
export function loadMiniAppsConfig(env: Env): MiniAppsConfig {
  const overrides = new Map<string, MiniAppOverrides>();
  const problems: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('MINI_APP_') || value === undefined || value === '') continue;
    const icon = ICON_URL.exec(name);
    const match = icon ?? URL_VAR.exec(name);
    if (!match) {
      problems.push(`${name}: not a setting (MINI_APP_<ID>_URL or MINI_APP_<ID>_ICON_URL)`);
      continue;
    }
    if (!isPublishableUrl(value)) {
      problems.push(
        `${name}=${shownValue(name, value)}: must be an absolute http(s) URL of at most ${MAX_PUBLISHED_URL_LENGTH} characters`,
      );
      continue;
    }
    const entry = overrides.get(match[1]) ?? {};
    overrides.set(match[1], icon ? { ...entry, iconUrl: value } : { ...entry, url: value });
  }
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
  return { overrides };
}
