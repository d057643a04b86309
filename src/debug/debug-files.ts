import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** src/debug/public beside the sources, dist/debug/public in the build (nest-cli.json copies it). */
export const DEBUG_FILES_DIR = join(__dirname, 'public');

export interface DebugFile {
  body: Buffer;
  contentType: string;
}

/** The page's files by the name they are served under; read once, when the module is built. */
const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'debug.css': 'text/css; charset=utf-8',
  'debug.js': 'text/javascript; charset=utf-8',
};

export function readDebugFiles(dir: string = DEBUG_FILES_DIR): ReadonlyMap<string, DebugFile> {
  const files = new Map<string, DebugFile>();
  for (const [name, contentType] of Object.entries(FILES)) {
    try {
      files.set(name, { body: readFileSync(join(dir, name)), contentType });
    } catch {
      throw new Error(
        `The debugger page's file ${join(dir, name)} cannot be read: \`nest build\` copies src/debug/public there (nest-cli.json assets)`,
      );
    }
  }
  return files;
}

/**
 * The page runs only its own script and style sheet: no inline code, nothing from another
 * origin, no framing; requests go to this service only.
 */
export const DEBUG_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
