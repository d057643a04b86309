import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

export interface Watcher {
  child: ChildProcess;
  /** Removes the tsconfig written for the watcher (its build output stays, as dist/ does). */
  cleanUp: () => void;
}

/**
 * `nest start --watch` on a tsconfig of its own whose output is `outDir` (default dist/dev): the
 * watcher deletes and rewrites its output directory, which must never be the production build in
 * dist/ (nor a build beside it). The tsconfig sits beside that directory, under the project, so
 * type roots and node_modules resolve as they do for tsconfig.build.json.
 */
export function startWatcher(env: NodeJS.ProcessEnv, outDir = join(ROOT, 'dist', 'dev')): Watcher {
  const out = resolve(ROOT, outDir);
  if (
    relative(ROOT, out) === 'dist' ||
    !relative(ROOT, out) ||
    relative(ROOT, out).startsWith('..')
  )
    throw new Error(
      `DEV_OUT_DIR must be a directory inside the project other than dist/: ${outDir}`,
    );
  const tsconfig = `${out}.tsconfig.json`;
  mkdirSync(dirname(tsconfig), { recursive: true });
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: relative(dirname(tsconfig), join(ROOT, 'tsconfig.build.json')),
      compilerOptions: { outDir: relative(dirname(tsconfig), out) },
    }),
  );
  const child = spawn(
    process.execPath,
    [
      require.resolve('@nestjs/cli/bin/nest.js'),
      'start',
      '--watch',
      '--path',
      relative(ROOT, tsconfig),
    ],
    { cwd: ROOT, env, stdio: 'inherit' },
  );
  return { child, cleanUp: () => rmSync(tsconfig, { force: true }) };
}
