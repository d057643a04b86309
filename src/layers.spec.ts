import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layout of src/ (see README, Layout): each top folder is a layer and imports only from its
 * own layer or those below. Files directly in src/ (main, compile-cache, tracing, bootstrap, the
 * app module) are the composition root; testing/ builds the real app, so it stands on top of
 * everything, and specs (never production code) may use its helpers wherever they are.
 */
export const LAYERS = [
  'contract',
  'config',
  'telemetry',
  'outbound',
  'evm',
  'kit',
  'auth',
  'payments',
  'follower',
  'outcomes',
  'publishing',
  'blinks',
  'mcp',
  'server',
  'actions',
  'client',
  'debug',
  '(root)',
  'testing',
] as const;

const SRC = __dirname;
const TEST = resolve(SRC, '..', 'test');
/** A folder may hold at most this share of src's lines. */
const MAX_SHARE = 0.25;

interface SourceFile {
  path: string;
  folder: string;
  lines: number;
  imports: string[];
}

const IMPORT =
  /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\(|jest\.\w+\()\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top folder of a path under src/, `(root)` for src's own files, undefined outside src. */
function folderOf(path: string): string | undefined {
  const rel = relative(SRC, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  const isFolder = existsSync(path) && statSync(path).isDirectory();
  return parts.length === 1 && !isFolder ? '(root)' : parts[0];
}

function read(path: string): SourceFile {
  const text = readFileSync(path, 'utf8');
  const imports = [...text.matchAll(IMPORT)].map((match) => resolve(dirname(path), match[1]));
  return { path, folder: folderOf(path)!, lines: text.split('\n').length, imports };
}

const FILES = sources(SRC).map(read);
const rank = (folder: string): number => (LAYERS as readonly string[]).indexOf(folder);
const name = (path: string): string => relative(resolve(SRC, '..'), path);

interface Edge {
  file: SourceFile;
  target: string;
  from: string;
  to: string;
}

/** Every import between two top folders, but a spec's use of testing/'s helpers. */
const EDGES: Edge[] = FILES.flatMap((file) =>
  file.imports.flatMap((target) => {
    const to = folderOf(target);
    if (!to || to === file.folder) return [];
    if (to === 'testing' && file.path.endsWith('.spec.ts')) return [];
    return [{ file, target, from: file.folder, to }];
  }),
);

/** Folder → the folders it imports from (itself excluded). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of EDGES) {
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
  }
  return graph;
}

/** Every cycle between folders, each as the path that closes it (a → b → a). */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found = new Set<string>();
  const visit = (node: string, path: string[]): void => {
    if (path.includes(node)) {
      found.add([...path.slice(path.indexOf(node)), node].join(' → '));
      return;
    }
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
  };
  for (const node of graph.keys()) visit(node, []);
  return [...found];
}

/** The room of a path: its top folder and the sub-folder under it (`kit/uploads`, `evm/chains`). */
function roomOf(path: string): string | undefined {
  const rel = relative(SRC, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  const isFolder = existsSync(path) && statSync(path).isDirectory();
  if (parts.length === 1) return isFolder ? parts[0] : '(root)';
  return parts.length > 2 || isFolder ? `${parts[0]}/${parts[1]}` : parts[0];
}

/**
 * Room → the rooms of the same folder it imports from; specs, which may cross, left out. actions/
 * is exempt: its root is the list of the action modules and mini-apps each action joins.
 */
function roomGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of FILES) {
    if (file.path.endsWith('.spec.ts') || file.folder === 'actions') continue;
    const from = roomOf(file.path)!;
    for (const target of file.imports) {
      const to = roomOf(target);
      if (!to || to === from || folderOf(target) !== file.folder) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

describe('the layers of src/', () => {
  it('names every top folder of src/ as a layer', () => {
    const unknown = [...new Set(FILES.map((file) => file.folder))].filter((f) => rank(f) < 0);
    expect(unknown).toEqual([]);
  });

  it('never imports from a higher layer', () => {
    const upward = EDGES.filter(({ from, to }) => rank(to) > rank(from)).map(
      ({ file, target }) => `${name(file.path)} → ${name(target)}`,
    );
    expect(upward).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  it('has no cycle between the sub-folders of a folder either', () => {
    expect(cycles(roomGraph())).toEqual([]);
  });

  it('never imports from test/', () => {
    const fromTest = FILES.flatMap((file) =>
      file.imports
        .filter((target) => !relative(TEST, target).startsWith('..'))
        .map((target) => `${name(file.path)} → ${name(target)}`),
    );
    expect(fromTest).toEqual([]);
  });

  it('keeps every folder under a quarter of the source lines', () => {
    const total = FILES.reduce((sum, file) => sum + file.lines, 0);
    const byFolder = new Map<string, number>();
    for (const file of FILES)
      byFolder.set(file.folder, (byFolder.get(file.folder) ?? 0) + file.lines);
    const over = [...byFolder]
      .filter(([, lines]) => lines > total * MAX_SHARE)
      .map(([folder, lines]) => `${folder}: ${lines} of ${total} lines`);
    expect(over).toEqual([]);
  });

  it('keeps the local chain (hardhat, solc: devDependencies) to src/testing/evm', () => {
    const chainTools = join(SRC, 'testing', 'evm');
    const outside = FILES.filter((file) => !file.path.startsWith(chainTools + sep))
      .filter((file) =>
        /from '(?:hardhat|solc)[/']|require\('(?:hardhat|solc)[/']/.test(
          readFileSync(file.path, 'utf8'),
        ),
      )
      .map((file) => name(file.path));
    expect(outside).toEqual([]);
  });

  it('finds the imports it checks (a guard against a broken pattern)', () => {
    const kit = FILES.filter((file) => file.folder === 'kit');
    expect(kit.length).toBeGreaterThan(20);
    expect(kit.some((file) => file.imports.some((target) => folderOf(target) === 'contract'))).toBe(
      true,
    );
  });
});
