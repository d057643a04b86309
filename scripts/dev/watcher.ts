import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const ROOT = resolve(__dirname, '..', '..');
/** How long the service may take over its graceful stop once the watcher is gone. */
const SWEEP_GRACE_MS = 8_000;
const SWEEP_POLL_MS = 100;

export interface Watcher {
  child: ChildProcess;
  /** Passes a signal on to the watcher, which passes it on to the service and exits after it. */
  signal: (signal: NodeJS.Signals) => void;
  /** Resolves once the watcher and every process it started (the service) are gone. */
  stopped: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Removes the tsconfig written for the watcher (its build output stays, as dist/ does). */
  cleanUp: () => void;
}

/** True while any process of the group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * What outlives the watcher in its process group (a service it did not wait for, a build
 * worker) gets SIGTERM, then SIGKILL past the grace period. Node has no event for the end of
 * a process that is not its child, hence the poll.
 */
async function sweepGroup(pgid: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  process.kill(-pgid, 'SIGTERM');
  const deadline = Date.now() + SWEEP_GRACE_MS;
  while (groupAlive(pgid) && Date.now() < deadline) await delay(SWEEP_POLL_MS);
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
}

/**
 * `nest start --watch` on a tsconfig of its own whose output is `outDir` (default dist/dev): the
 * watcher deletes and rewrites its output directory, which must never be the production build in
 * dist/ (nor a build beside it). The tsconfig sits beside that directory, under the project, so
 * type roots and node_modules resolve as they do for tsconfig.build.json.
 *
 * Stopping: `--no-shell` makes the service the watcher's own child, so the signal the watcher
 * passes on reaches it (through `sh -c` it reached the shell only, and the service outlived the
 * loop on its ports). The watcher runs in a process group of its own, swept once it exits.
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
      '--no-shell',
      '--path',
      relative(ROOT, tsconfig),
    ],
    // Its own process group: a terminal's Ctrl-C reaches the loop, which passes it on once.
    { cwd: ROOT, env, stdio: 'inherit', detached: true },
  );
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const stopped = exited.then(async ([code, signal]) => {
    if (child.pid !== undefined) await sweepGroup(child.pid);
    return { code, signal };
  });
  return {
    child,
    signal: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    stopped,
    cleanUp: () => rmSync(tsconfig, { force: true }),
  };
}
