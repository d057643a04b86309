/**
 * `npm run bench:ab -- <base ref> [--rounds 3 --runs 3 --duration 8 --warmup 3 --row memory]
 * [--install]`: the A/B run issue 14 keeps a change by. The base ref is built in a temporary
 * worktree (sharing the working tree's node_modules, or with `--install` its own from its
 * lockfile, built and compiled by its own tools: for a change of dependencies), the working
 * tree in dist/; then one row's server from each is measured in alternating rounds
 * (A B, B A, A B…), each round starting the server afresh and taking `--runs` loads after a
 * warm-up: rounds × runs figures a side. A change is shown when the sides' figures separate
 * (Mann–Whitney, one-sided p < 0.05), not when one median happens to be higher.
 * `--instructions` counts instructions per request under callgrind instead (bench.instructions.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compileEntries } from './bench.entries';
import { runLoad, SERVERS, type ServerSpec, startServer, stopServer } from './bench.servers';
import { instructionsPerRequest } from './bench.instructions';
import { startStubNode } from './bench.stub';
import { mannWhitney, median } from './bench.stats';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '5' },
    row: { type: 'string', default: 'memory' },
    instructions: { type: 'boolean', default: false },
    install: { type: 'boolean', default: false },
  },
});
const [rounds, runs, duration, warmup] = [
  values.rounds,
  values.runs,
  values.duration,
  values.warmup,
].map(Number);
const base = positionals[0];
const row = SERVERS.find((s) => s.id === values.row);
if (!base || !row) {
  console.error(
    `usage: npm run bench:ab -- <git ref> [--row ${SERVERS.map((s) => s.id).join('|')}]`,
  );
  process.exit(2);
}
const PORT = 3290;

/**
 * The base ref, checked out and built beside the working tree: sharing its node_modules, or with
 * `--install` with its own (`npm ci`), built by its own `npm run build` and its bench entries
 * compiled by its own TypeScript.
 */
function buildBase(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ab-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  if (values.install) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    const built = spawnSync('npm', ['run', 'build'], { cwd: dir, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`building ${ref} failed`);
    const script = "require('./test/bench/bench.entries').compileEntries()";
    const compiled = spawnSync('npx', ['ts-node', '--transpile-only', '-e', script], {
      cwd: dir,
      stdio: 'inherit',
    });
    if (compiled.status !== 0) throw new Error(`compiling ${ref}'s bench entries failed`);
    return dir;
  }
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  const built = spawnSync('npx', ['nest', 'build'], { cwd: dir, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`building ${ref} failed`);
  if (existsSync(join(dir, 'test/bench/bench.entries.ts'))) {
    process.chdir(dir);
    compileEntries();
    process.chdir(resolve(__dirname, '../..'));
  }
  return dir;
}

/** CPU time (user + system, ms) the process has used: /proc's ticks are 10 ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Side {
  label: string;
  spec: ServerSpec;
  rps: number[];
  cpuUs: number[];
}

async function measure(side: Side): Promise<void> {
  const running = await startServer(side.spec, PORT);
  try {
    await runLoad(running, warmup, side.spec.connections);
    for (let run = 0; run < runs; run++) {
      const before = cpuMs(running.child.pid as number);
      const figures = await runLoad(running, duration, side.spec.connections);
      if (figures.non2xx > 0 || figures.errors > 0)
        throw new Error(`${side.label}: ${figures.non2xx} non-2xx, ${figures.errors} errors`);
      side.rps.push(figures.rps);
      side.cpuUs.push(((cpuMs(running.child.pid as number) - before) * 1000) / figures.total);
    }
  } finally {
    await stopServer(running);
  }
  console.log(`${side.label}: ${side.rps.slice(-runs).map(Math.round).join(' ')} req/s`);
}

async function main(): Promise<void> {
  const built = spawnSync('npx', ['nest', 'build'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the working tree failed');
  compileEntries();
  const dir = buildBase(base);
  const withBase = (args: string[]): string[] =>
    args.map((arg) => (arg.startsWith('dist/') ? join(dir, arg) : arg));
  // Before the sides copy the row: starting it sets the row's CHAIN_CONFIG_FILE.
  const stub = row!.needsStub ? await startStubNode() : undefined;
  const a: Side = {
    label: `A ${base}`,
    spec: { ...row!, args: withBase(row!.args) },
    rps: [],
    cpuUs: [],
  };
  const b: Side = { label: 'B working tree', spec: row!, rps: [], cpuUs: [] };
  try {
    if (values.instructions) return await compareInstructions(a, b);
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? [a, b] : [b, a]) await measure(side);
    }
  } finally {
    await stub?.stop();
    execFileSync('git', ['worktree', 'remove', '--force', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
  const gain = (median(b.rps) / median(a.rps) - 1) * 100;
  const { p } = mannWhitney(a.rps, b.rps);
  const cpu = (median(b.cpuUs) / median(a.cpuUs) - 1) * 100;
  console.log(
    `\n${row!.name}: A ${Math.round(median(a.rps))} req/s, B ${Math.round(median(b.rps))} req/s ` +
      `(${gain >= 0 ? '+' : ''}${gain.toFixed(1)} %, p = ${p.toFixed(4)}); CPU per request ` +
      `A ${median(a.cpuUs).toFixed(0)} µs, B ${median(b.cpuUs).toFixed(0)} µs (${cpu >= 0 ? '+' : ''}${cpu.toFixed(1)} %)`,
  );
  console.log(p < 0.05 && gain > 0 ? 'B is faster: shown' : 'not shown: keep A');
}

/**
 * `--instructions`: both sides under callgrind at once (a count does not depend on what else
 * runs), `--rounds` times. Shown when every count of B is below every count of A.
 */
async function compareInstructions(a: Side, b: Side): Promise<void> {
  const counts: [number[], number[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    const [ca, cb] = await Promise.all([
      instructionsPerRequest(a.spec, PORT),
      instructionsPerRequest(b.spec, PORT + 20),
    ]);
    counts[0].push(ca);
    counts[1].push(cb);
    console.log(
      `round ${round + 1}: A ${Math.round(ca)}, B ${Math.round(cb)} instructions/request`,
    );
  }
  const change = (median(counts[1]) / median(counts[0]) - 1) * 100;
  console.log(
    `\n${row!.name}: instructions per request A ${Math.round(median(counts[0]))}, ` +
      `B ${Math.round(median(counts[1]))} (${change >= 0 ? '+' : ''}${change.toFixed(1)} %)`,
  );
  console.log(
    Math.max(...counts[1]) < Math.min(...counts[0]) ? 'B runs fewer: shown' : 'not shown: keep A',
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
