import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { bestSwapAction } from '../../src/actions/best-swap/best-swap.action';

const ROOT = join(__dirname, '..', '..');
/** What the issue asks of a stop: every port free and no process left within 10 s. */
const STOP_WITHIN_MS = 10_000;

/** `count` distinct free ports: listened on with port 0 all at once, then closed. */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = Array.from({ length: count }, () => createServer().listen(0));
  await Promise.all(servers.map((server) => once(server, 'listening')));
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** Whether a port can be listened on, on every interface (so held on none). */
async function portFree(port: number): Promise<boolean> {
  const probe = createServer();
  const free = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, () => resolve(true));
  });
  if (free) await new Promise((resolve) => probe.close(resolve));
  return free;
}

/** pid → [parent pid, state] of every process, from /proc. */
function processTable(): Map<number, [number, string]> {
  const table = new Map<number, [number, string]>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), [Number(ppid), state]);
    } catch {
      // Ended while the table was read.
    }
  }
  return table;
}

/** The process and every descendant, with their command lines. */
function tree(root: number): Map<number, string> {
  const table = processTable();
  const found = new Map<number, string>();
  const visit = (pid: number): void => {
    try {
      found.set(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
    } catch {
      return; // ended meanwhile
    }
    for (const [child, [parent]] of table) if (parent === pid) visit(child);
  };
  visit(root);
  return found;
}

/** Of these pids, those still running (a zombie waiting for its reaper runs nothing, holds no port). */
function stillRunning(pids: Iterable<number>): number[] {
  const table = processTable();
  return [...pids].filter((pid) => table.has(pid) && table.get(pid)?.[1] !== 'Z');
}

interface DevRun {
  child: ChildProcess;
  /** Every process of its tree once it was ready, for the clean-up of a failed test. */
  pids: Map<number, string>;
  output: () => string;
  /** Resolves once every process holding the loop's output (npm to the service) has ended. */
  closed: Promise<unknown>;
  ports: { service: number; metrics: number; chain: number };
}

/** `npm run dev` in a process group of its own (as a terminal runs it), on free ports. */
function startDev(ports: number[], outDir: string): DevRun {
  const [service, metrics, chain] = ports;
  const child = spawn('npm', ['run', 'dev'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: String(service),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metrics),
      DEV_CHAIN_PORT: String(chain),
      DEV_OUT_DIR: outDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    pids: new Map(),
    output: () => output,
    closed: once(child, 'close'),
    ports: { service, metrics, chain },
  };
}

/** Resolves once the output matches; rejects should the process exit first. */
function printed(run: DevRun, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = pattern.exec(run.output());
      if (!match) return;
      run.child.stdout?.off('data', check);
      run.child.off('exit', exited);
      resolve(match);
    };
    const exited = (): void =>
      reject(new Error(`exited before printing ${pattern}:\n${run.output().slice(-3000)}`));
    run.child.stdout?.on('data', check);
    run.child.once('exit', exited);
    check();
  });
}

/** Rejects after `ms` unless `promise` settles first. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still running after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The whole loop, started, ready, then stopped by a signal: npm's alone or the group's. */
describe('npm run dev: stopping', () => {
  const outDirs: string[] = [];
  const runs: DevRun[] = [];

  afterAll(() => {
    // A failed test leaves its tree: the loop's group and the watcher's, which is its own.
    for (const { child, pids } of runs) {
      const alive = child.pid !== undefined && child.exitCode === null && child.signalCode === null;
      const all = [...pids.keys(), ...(alive ? tree(child.pid).keys() : [])];
      for (const pid of stillRunning(all)) process.kill(pid, 'SIGKILL');
    }
    for (const dir of outDirs) rmSync(join(ROOT, dir), { recursive: true, force: true });
  });

  async function readyRun(name: string): Promise<{ run: DevRun; pids: Map<number, string> }> {
    const outDir = join('dist', `dev-${name}-${process.pid}`);
    outDirs.push(outDir);
    const run = startDev(await freePorts(3), outDir);
    runs.push(run);
    await printed(run, /dev: chain 43113 at \S+\n/);
    await printed(run, new RegExp(`Listening on http://127\\.0\\.0\\.1:${run.ports.service}\\b`));
    const pids = tree(run.child.pid as number);
    run.pids = pids;
    // The tree being watched holds npm, the loop, the watcher and the service (its build).
    expect([...pids.values()]).toEqual(
      expect.arrayContaining([
        expect.stringContaining('scripts/dev.ts'),
        expect.stringContaining('nest.js start --watch'),
        expect.stringContaining(`${outDir}/main`),
      ]),
    );
    for (const port of Object.values(run.ports)) expect(await portFree(port)).toBe(false);
    return { run, pids };
  }

  async function expectStopped(run: DevRun, pids: Map<number, string>): Promise<void> {
    await within(run.closed, STOP_WITHIN_MS, 'npm run dev after the signal');
    const left = stillRunning(pids.keys()).map((pid) => `${pid} ${pids.get(pid)}`);
    expect(left).toEqual([]);
    for (const port of Object.values(run.ports)) expect(await portFree(port)).toBe(true);
    expect(run.output()).toContain('dev: stopped (service exit 0), chain stopped');
  }

  it('serves the shipped actions, then SIGTERM to npm alone stops every process and frees every port', async () => {
    const { run, pids } = await readyRun('sigterm');
    const base = `http://127.0.0.1:${run.ports.service}`;
    const [sample] = bestSwapAction.samples ?? [];
    const swap = await fetch(`${base}/api/best-swap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-address': String(sample.userAddress) },
      body: JSON.stringify({ params: sample.params }),
    });
    expect([swap.status, ((await swap.json()) as { chainId: number }).chainId]).toEqual([
      200, 43113,
    ]);

    process.kill(run.child.pid as number, 'SIGTERM');
    await expectStopped(run, pids);
  }, 180_000);

  it('Ctrl-C (SIGINT to the process group) stops every process and frees every port', async () => {
    const { run, pids } = await readyRun('sigint');
    process.kill(-(run.child.pid as number), 'SIGINT');
    await expectStopped(run, pids);
  }, 180_000);
});
