import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import {
  MAX_PUBLISHED_URL_LENGTH,
  MINI_APPS_CONFIG,
  type MiniAppsConfig,
} from '../config/mini-apps.config';
import { ActionRegistry, type MiniAppGroup } from '../kit/action.registry';
import type { MiniAppMetadata } from '../contract/action.types';
import { DEFAULT_MINI_APP_ICON, isIconUrl, miniAppEnvId, miniAppPath } from '../kit/mini-app';
import { MiniAppIcons } from '../kit/mini-app-icons';
import { platformBootProblems } from './platform-boot.check';
import type { MiniAppIndex } from '../contract/mini-app.types';

/** How one mini-app's `url` and `icon` are made: fixed URLs, or paths on the base URL. */
interface Published {
  group: MiniAppGroup;
  /** MINI_APP_<ID>_URL; unset: the URL the document is served at. */
  url?: string;
  /** An absolute URL, or a path of a served icon to put on the base URL. */
  icon: { absolute: string } | { path: string };
}

/**
 * The documents the platform reads, built per request on the public base URL. Precedence of
 * `icon`: MINI_APP_<ID>_ICON_URL, then METADATA_ICON_URL, then the declaration's icon (a URL, or
 * a file this service serves), then the kit's default icon.
 */
@Injectable()
export class MiniAppDocuments {
  private readonly published: Published[];

  constructor(
    registry: ActionRegistry,
    icons: MiniAppIcons,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MINI_APPS_CONFIG) { overrides }: MiniAppsConfig,
  ) {
    this.published = registry.miniApps().map((group) => {
      const configured = overrides.get(miniAppEnvId(group.miniApp.id)) ?? {};
      const declared = group.miniApp.icon ?? DEFAULT_MINI_APP_ICON;
      const absolute = configured.iconUrl ?? config.metadata.iconUrl;
      const icon =
        absolute !== undefined
          ? { absolute }
          : isIconUrl(declared)
            ? { absolute: declared }
            : { path: icons.publishedPath(declared) ?? '' }; // the registry checked it exists
      return { group, url: configured.url, icon };
    });
    this.assertPublishable([...overrides.keys()]);
    this.assertPlatformAccepts(config.publicBaseUrl);
  }

  /** The platform refuses a whole mini-app for one refused parameter: stop the boot instead. */
  private assertPlatformAccepts(baseUrl: string | undefined): void {
    const problems = platformBootProblems(
      this.published.map(({ group }) => group),
      (group, base) => this.miniApp(group.miniApp.id, base),
      baseUrl,
    );
    if (problems.length > 0) {
      throw new Error(
        `Declarations the platform's createMetadata refuses:\n  - ${problems.join('\n  - ')}`,
      );
    }
  }

  /** `GET /api/metadata`: the service's title and description, and every mini-app. */
  index(baseUrl: string): MiniAppIndex {
    const { title, description } = this.config.metadata;
    return {
      title,
      description,
      baseUrl,
      miniApps: this.published.map(({ group: { miniApp, actions }, icon }) => ({
        id: miniApp.id,
        title: miniApp.title,
        description: miniApp.description,
        icon: iconUrl(icon, baseUrl),
        metadataUrl: `${baseUrl}${miniAppPath(miniApp.id)}`,
        actionPaths: actions.map((action) => action.path),
      })),
    };
  }

  /** `GET /api/mini-apps/<id>`: a mini-app with all its actions, chain actions last. */
  miniApp(id: string, baseUrl: string): MiniAppMetadata | undefined {
    const found = this.published.find((entry) => entry.group.miniApp.id === id);
    return (
      found &&
      this.document(found, baseUrl, miniAppPath(id), [
        ...found.group.actions,
        ...found.group.chainActions,
      ])
    );
  }

  /** `GET <action path>`: the action alone, in its mini-app's title, description and icon. */
  action(path: string, baseUrl: string): MiniAppMetadata | undefined {
    for (const entry of this.published) {
      const action = entry.group.actions.find((candidate) => candidate.path === path);
      if (action) return this.document(entry, baseUrl, path, [action]);
    }
    return undefined;
  }

  private document(
    { group: { miniApp }, url, icon }: Published,
    baseUrl: string,
    servedAt: string,
    actions: MiniAppMetadata['actions'],
  ): MiniAppMetadata {
    return {
      url: url ?? `${baseUrl}${servedAt}`,
      icon: iconUrl(icon, baseUrl),
      title: miniApp.title,
      description: miniApp.description,
      baseUrl,
      actions,
    };
  }

  /**
   * Boot checks the declarations cannot make: configuration naming no mini-app (a typo would
   * otherwise be ignored) and, with PUBLIC_BASE_URL, published URLs over the platform's limit.
   */
  private assertPublishable(configuredIds: string[]): void {
    const known = this.published.map(({ group }) => miniAppEnvId(group.miniApp.id));
    const problems = configuredIds
      .filter((id) => !known.includes(id))
      .map(
        (id) =>
          `MINI_APP_${id}_*: no mini-app has the id ${id.toLowerCase().replace(/_/g, '-')} (mini-apps: ${known.join(', ') || 'none'})`,
      );
    const base = this.config.publicBaseUrl;
    for (const entry of this.published) {
      if (base === undefined) break;
      const paths = [
        miniAppPath(entry.group.miniApp.id),
        ...entry.group.actions.map((a) => a.path),
      ];
      const urls = [iconUrl(entry.icon, base), ...paths.map((p) => entry.url ?? `${base}${p}`)];
      const long = urls.find((url) => url.length > MAX_PUBLISHED_URL_LENGTH);
      if (long !== undefined) {
        problems.push(
          `mini-app "${entry.group.miniApp.id}": a published URL is ${long.length} characters long, over the platform's ${MAX_PUBLISHED_URL_LENGTH} (shorten PUBLIC_BASE_URL or the paths)`,
        );
      }
    }
    if (problems.length > 0) {
      throw new Error(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    }
  }
}

const iconUrl = (icon: Published['icon'], baseUrl: string): string =>
  'absolute' in icon ? icon.absolute : `${baseUrl}${icon.path}`;
