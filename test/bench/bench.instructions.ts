import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Running, type ServerSpec, startServer, stopServer } from './bench.servers';

/**
 * Instructions a server runs per request, counted by valgrind's callgrind: its own code, V8's
 * compiler and garbage collector included, the kernel's work not. Unlike req/s on a shared VM
 * (±10 % between runs), the count repeats within about 1 %, so a change of a few percent shows.
 */
export async function instructionsPerRequest(
  spec: ServerSpec,
  port: number,
  { warm = 3000, count = 1000 } = {},
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  // vgdb, through which callgrind_control reaches the process, names its pipes after the user
  // and HOST, which for the server is the address it listens on (startServer sets it).
  const user = process.env.LOGNAME ?? process.env.USER ?? 'bench';
  const env = { USER: user, LOGNAME: user };
  const running = await startServer(spec, port, {
    command: [
      'valgrind',
      '--tool=callgrind',
      '--vgdb=yes',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
    ],
    // V8 compiles and collects on the main thread, at the same points in every run, instead of
    // on helper threads that finish whenever the machine lets them: the count then repeats.
    nodeOptions: ['--single-threaded'],
    env,
  });
  const control = (option: string): void => {
    execFileSync('callgrind_control', [option, String(running.child.pid)], {
      env: { ...process.env, ...env, HOST: '127.0.0.1' },
      stdio: 'ignore',
    });
  };
  try {
    await send(running, warm);
    control('--zero');
    await send(running, count);
    control('--dump');
  } finally {
    await stopServer(running);
  }
  const files = readdirSync(dir);
  const dump = files.find((file) => file.endsWith('.out.1'));
  const totals = dump && /^totals: (\d+)/m.exec(readFileSync(join(dir, dump), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  if (!totals) throw new Error(`${spec.name}: callgrind wrote no dump (${files.join(', ')})`);
  return Number(totals[1]) / count;
}

/** `amount` requests of the row's target, ten at a time; every one must answer 2xx. */
async function send({ url, target }: Running, amount: number): Promise<void> {
  const result = await autocannon({
    url,
    amount,
    connections: 10,
    // Under valgrind a checked answer's first requests (their code not yet compiled) outlast
    // autocannon's default 10 s.
    timeout: 120,
    method: 'POST',
    headers: target.headers,
    body: target.body,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
}

export const hasCallgrind = (): boolean => {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
