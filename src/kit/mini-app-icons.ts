import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { ICONS_ROUTE } from './mini-app';

/** src/assets/icons beside the sources, dist/assets/icons in the build (nest-cli.json copies it). */
export const ICONS_DIR = join(__dirname, '..', 'assets', 'icons');

const CONTENT_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

export interface IconFile {
  body: Buffer;
  contentType: string;
  /** The first 12 hex digits of the file's SHA-256: part of its published URL. */
  version: string;
}

/**
 * The images the service serves itself, read once at boot and held in memory (a few KB each).
 * A published icon URL carries its file's hash (`?v=`), so a changed icon gets a new URL and the
 * year-long, immutable cache lifetime of the answers never shows a stale one.
 */
@Injectable()
export class MiniAppIcons {
  private readonly files: ReadonlyMap<string, IconFile>;

  constructor() {
    this.files = readIcons(ICONS_DIR);
  }

  /** A file by its exact name; anything else (paths, `..`) is simply not found. */
  get(name: string): IconFile | undefined {
    return this.files.get(name);
  }

  /** The path an icon is published at: `/icons/<file>?v=<version>`; undefined for an unknown file. */
  publishedPath(name: string): string | undefined {
    const file = this.files.get(name);
    return file && `${ICONS_ROUTE}/${encodeURIComponent(name)}?v=${file.version}`;
  }

  names(): string[] {
    return [...this.files.keys()];
  }
}

/** Every image of `dir` by file name; other files are left out. */
export function readIcons(dir: string): Map<string, IconFile> {
  const files = new Map<string, IconFile>();
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    throw new Error(
      `The icons folder ${dir} cannot be read: \`nest build\` copies src/assets/icons there (nest-cli.json assets)`,
    );
  }
  for (const entry of entries) {
    const contentType = CONTENT_TYPES[extname(entry.name).toLowerCase()];
    if (!entry.isFile() || contentType === undefined) continue;
    const body = readFileSync(join(dir, entry.name));
    const version = createHash('sha256').update(body).digest('hex').slice(0, 12);
    files.set(entry.name, { body, contentType, version });
  }
  return files;
}
