import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A mini-app declared in src/actions/mini-apps.ts, with the paths of the actions naming it. */
export interface MiniAppEntry {
  constant: string;
  id: string;
  actionPaths: string[];
}

/** An action declared in a `src/actions/<folder>/*.action.ts` file. */
interface DeclaredPath {
  file: string;
  path: string;
  miniApp?: string;
  /** Declares a `price` (paid over x402). */
  paid?: boolean;
}

/**
 * What the action files declare, read as text: the scaffold must not load the project (a broken
 * action would stop it), and the boot checks stay the judge of anything this reading misses.
 */
export function declaredPaths(actionsDir: string): DeclaredPath[] {
  const found: DeclaredPath[] = [];
  const folders = readdirSync(actionsDir, { withFileTypes: true }).filter((f) => f.isDirectory());
  for (const folder of folders.sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = join(actionsDir, folder.name);
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith('.action.ts'))
      .sort()) {
      const text = readFileSync(join(dir, file), 'utf8');
      const path = /\bpath:\s*'([^']+)'/.exec(text)?.[1];
      const miniApp = /\bminiApp:\s*(\w+)/.exec(text)?.[1];
      // A paid action is in no mini-app document (docs/agents.md): it takes no mini-app's room.
      const paid = /\bprice:\s*\{/.test(text);
      if (path) found.push({ file: `src/actions/${folder.name}/${file}`, path, miniApp, paid });
    }
  }
  return found;
}

/** The mini-apps of src/actions/mini-apps.ts, each with the actions that name its constant. */
export function declaredMiniApps(actionsDir: string): MiniAppEntry[] {
  const file = join(actionsDir, 'mini-apps.ts');
  if (!existsSync(file)) return [];
  const actions = declaredPaths(actionsDir);
  const text = readFileSync(file, 'utf8');
  const entries: MiniAppEntry[] = [];
  for (const match of text.matchAll(/export const (\w+)\s*=\s*defineMiniApp\(\{([\s\S]*?)\}\)/g)) {
    const id = /\bid:\s*'([^']+)'/.exec(match[2])?.[1];
    if (!id) continue;
    const actionPaths = actions.filter((a) => a.miniApp === match[1] && !a.paid).map((a) => a.path);
    entries.push({ constant: match[1], id, actionPaths });
  }
  return entries;
}

/** Inserts `item` as the last element of the array literal assigned to `constant`. */
function appendToArray(text: string, constant: string, item: string, file: string): string {
  const start = new RegExp(`\\b${constant}\\b[^=]*=\\s*\\[`).exec(text);
  if (!start) throw new Error(`${file} has no array ${constant} = [...] to add ${item} to`);
  const open = start.index + start[0].length;
  const close = text.indexOf('];', open);
  if (close < 0) throw new Error(`${file}: the array ${constant} does not end with "];"`);
  const before = text.slice(0, close).trimEnd();
  const separator = before.endsWith('[') || before.endsWith(',') ? '' : ',';
  return `${before}${separator}\n  ${item},\n${text.slice(close)}`;
}

/** Inserts `block` before `export const <constant>` and the comment that documents it. */
function insertBefore(text: string, constant: string, block: string, file: string): string {
  let at = text.indexOf(`export const ${constant}`);
  if (at < 0)
    throw new Error(`${file} has no "export const ${constant}" to add a declaration above`);
  if (text.slice(0, at).trimEnd().endsWith('*/')) at = text.lastIndexOf('/**', at);
  return `${text.slice(0, at)}${block}\n\n${text.slice(at)}`;
}

/** src/actions/index.ts with the module's import and its entry in ACTION_MODULES. */
export function withActionModule(text: string, moduleClass: string, importPath: string): string {
  const line = `import { ${moduleClass} } from '${importPath}';`;
  const imports = [...text.matchAll(/^import .*;$/gm)];
  const last = imports[imports.length - 1];
  const at = last ? last.index + last[0].length : 0;
  const withImport = `${text.slice(0, at)}${last ? '\n' : ''}${line}${last ? '' : '\n'}${text.slice(at)}`;
  return appendToArray(withImport, 'ACTION_MODULES', moduleClass, 'src/actions/index.ts');
}

/** src/actions/mini-apps.ts with a new mini-app declared and listed in MINI_APPS. */
export function withMiniApp(text: string, constant: string, declaration: string): string {
  const file = 'src/actions/mini-apps.ts';
  return appendToArray(
    insertBefore(text, 'MINI_APPS', declaration, file),
    'MINI_APPS',
    constant,
    file,
  );
}
