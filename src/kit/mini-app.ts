import type { MiniAppDeclaration } from '../contract/mini-app.types';

/** Icon of a mini-app that declares none: a file of src/assets/icons. */
export const DEFAULT_MINI_APP_ICON = 'mini-app.svg';

/** Where icons are served: `GET /icons/<file>`. */
export const ICONS_ROUTE = '/icons';

/** Where a mini-app's document is served; action paths may not start with it. */
export const MINI_APPS_ROUTE = '/api/mini-apps';

/** Words of lower-case letters and digits joined by single hyphens. */
export const MINI_APP_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Typed identity, like defineAction: declares a mini-app once; actions name it by reference. */
export function defineMiniApp(declaration: MiniAppDeclaration): MiniAppDeclaration {
  return declaration;
}

/** `my-wallet` → `MY_WALLET`, the `<ID>` of MINI_APP_<ID>_URL and MINI_APP_<ID>_ICON_URL. */
export function miniAppEnvId(id: string): string {
  return id.toUpperCase().replace(/-/g, '_');
}

/** The path of a mini-app's metadata document. */
export function miniAppPath(id: string): string {
  return `${MINI_APPS_ROUTE}/${id}`;
}

/** Injection token: the registered mini-apps, or null for "those the served actions name". */
export const REGISTERED_MINI_APPS = Symbol('REGISTERED_MINI_APPS');

/** An icon given with a scheme (`https://…`) is a URL; otherwise it names a served file. */
export const isIconUrl = (icon: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(icon);

/**
 * The platform's limits on a mini-app (its createMetadata; URLs: MAX_PUBLISHED_URL_LENGTH).
 * src/testing keeps its own copy on purpose: the checker must not share the service's mistakes.
 */
export const MINI_APP_LIMITS = { title: 1000, description: 2000, actions: 4 } as const;
