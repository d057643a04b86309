import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

interface Stage {
  name: string;
  lines: string[];
}

/** The Dockerfile's stages, each with its instructions (continuation lines joined). */
function stages(): Stage[] {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const list: Stage[] = [];
  for (const line of text.split('\n').map((each) => each.trim())) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) list.push({ name: from[1] ?? String(list.length), lines: [] });
    else if (line && !line.startsWith('#')) list.at(-1)?.lines.push(line);
  }
  return list;
}

/** The `npm ci` that fills the final image's node_modules: in its stage, or one it copies from. */
function runtimeInstall(): string[] {
  const all = stages();
  const last = all.at(-1)!;
  const copied = last.lines
    .map((line) => /^COPY\s+--from=(\S+)\s+\S*node_modules\b/i.exec(line)?.[1])
    .find(Boolean);
  const stage = copied ? all.find(({ name }) => name === copied) : last;
  const run = stage?.lines.find((line) => /^RUN\s+npm ci\b/.test(line));
  if (!run) throw new Error(`no RUN npm ci in the Dockerfile's stage ${stage?.name}`);
  return run.split('&&')[0].trim().split(/\s+/).slice(3);
}

/** What that install adds, as npm itself resolves it from the lockfile (name@version). */
function installedBy(flags: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'image-deps-'));
  try {
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(ROOT, 'package-lock.json'), join(dir, 'package-lock.json'));
    const args = ['ci', ...flags, '--dry-run', '--offline', '--ignore-scripts'];
    const run = spawnSync('npm', [...args, '--cache', join(dir, 'cache')], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`npm ${args.join(' ')} failed: ${run.stderr}`);
    return [...run.stdout.matchAll(/^add (\S+) (\S+)$/gm)].map(([, name, v]) => `${name}@${v}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Locked {
  version: string;
  dev?: boolean;
  optional?: boolean;
  /** A devDependency's dependency that is also an optional peer of a production package. */
  devOptional?: boolean;
  hasInstallScript?: boolean;
}

describe('The container image', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Locked>;
  };
  /** Every package of the production tree in the lockfile, optional peers included. */
  const production = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev)
    .map(
      ([path, { version }]) => `${path.slice(path.lastIndexOf('node_modules/') + 13)}@${version}`,
    );
  const name = (id: string): string => id.slice(0, id.lastIndexOf('@'));
  let installed: string[];

  beforeAll(() => {
    installed = installedBy(runtimeInstall());
  }, 60_000);

  it('runs the command npm run start:prod runs (what CI smoke-tests)', () => {
    const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
    const start = (pkg as unknown as { scripts: Record<string, string> }).scripts['start:prod'];
    expect(cmd && (JSON.parse(cmd[1]) as string[])).toEqual(start.split(/\s+/));
  });

  it('installs no development package: no TypeScript, no devDependency', () => {
    const names = new Set(installed.map(name));
    // A devDependency the production tree needs too is production's (express: the tests' own,
    // and a dependency of the MCP SDK's): the lockfile marks only the others `dev`.
    const devOnly = (each: string): boolean => lock.packages[`node_modules/${each}`]?.dev === true;
    const dev = new Set([...Object.keys(pkg.devDependencies).filter(devOnly), 'typescript']);
    expect([...dev].filter((each) => names.has(each))).toEqual([]);
  });

  it('installs every production dependency the lockfile holds, and nothing else', () => {
    expect(
      Object.keys(pkg.dependencies).filter((each) => !installed.some((id) => name(id) === each)),
    ).toEqual([]);
    expect(installed.filter((id) => !production.includes(id))).toEqual([]);
  });

  it('skips install scripts only where none is needed (a new one must be judged here)', () => {
    // @scarf/scarf (through swagger-ui-dist, of @nestjs/swagger) only reports the install to its
    // vendor; the package works without it having run.
    const skippable = ['node_modules/@scarf/scarf'];
    const omitsOptional = runtimeInstall().includes('--omit=optional');
    const scripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.dev && entry.hasInstallScript)
      .filter(([, entry]) => !(omitsOptional && (entry.optional || entry.devOptional)))
      .map(([path]) => path)
      .filter((path) => !skippable.includes(path));
    expect(runtimeInstall().includes('--ignore-scripts') ? scripts : []).toEqual([]);
  });

  it('leaves out only optional peers the service never loads (a new one must be judged here)', () => {
    // TypeScript is an optional peer of viem, abitype and ox (for their types); npm installs
    // optional peers unless told --omit=optional, and the service never requires it.
    // msgpackr-extract is msgpackr's optional native encoder (msgpackr is BullMQ's, for
    // webhooks): with it left out, with its platform builds and their loaders, msgpackr encodes
    // in JavaScript. bufferutil and utf-8-validate (with node-gyp-build, their loader) are ws's
    // optional native helpers (ws is viem's, for WebSocket transports the service never opens);
    // the blink adapter's wallet stack in the tests installs them, so the lockfile holds them.
    // (zod, once only abitype's optional peer, is installed: the MCP SDK and @x402/core depend on it.)
    const neverLoaded = [
      '@msgpackr-extract/msgpackr-extract-darwin-arm64',
      '@msgpackr-extract/msgpackr-extract-darwin-x64',
      '@msgpackr-extract/msgpackr-extract-linux-arm',
      '@msgpackr-extract/msgpackr-extract-linux-arm64',
      '@msgpackr-extract/msgpackr-extract-linux-x64',
      '@msgpackr-extract/msgpackr-extract-win32-x64',
      'bufferutil',
      'detect-libc',
      'msgpackr-extract',
      'node-gyp-build',
      'node-gyp-build-optional-packages',
      'typescript',
      'utf-8-validate',
    ];
    expect(production.filter((id) => !installed.includes(id)).map(name)).toEqual(neverLoaded);
  });
});
