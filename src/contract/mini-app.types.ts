import type { ChainActionSource } from './chain-action.types';

/** A mini-app as a team declares it, once, with `defineMiniApp`; actions refer to it. */
export interface MiniAppDeclaration {
  /**
   * Lower-case letters and digits in words joined by single hyphens (`tools`, `my-wallet`): the
   * document is at `/api/mini-apps/<id>`, and `MINI_APP_<ID>_URL` / `_ICON_URL` configure it.
   */
  id: string;
  /** Shown by the platform; at most 1000 characters (its docs recommend 50). */
  title: string;
  /** At most 2000 characters (the platform's docs recommend 200). */
  description: string;
  /**
   * A file of `src/assets/icons` (served at `/icons/<file>`), or an absolute http(s) URL.
   * Default: `mini-app.svg`.
   */
  icon?: string;
  /**
   * The mini-app's `blockchain` and `transfer` actions (defineChainAction), published after its
   * dynamic actions; the platform's limit of 4 actions counts both.
   */
  chainActions?: readonly ChainActionSource[];
}

/** One mini-app as the service's index lists it. */
export interface MiniAppSummary {
  id: string;
  title: string;
  description: string;
  icon: string;
  /** Where its metadata document is: the URL to register on the platform. */
  metadataUrl: string;
  /** The paths of its actions (`POST` runs one, `GET` answers a one-action document). */
  actionPaths: string[];
}

/** `GET /api/metadata`: what the service hosts. Not a platform document itself. */
export interface MiniAppIndex {
  title: string;
  description: string;
  baseUrl: string;
  miniApps: MiniAppSummary[];
}
