import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { buildProduction, type ProductionBuild } from '../support/production.server';
import { freePort } from '../support/redis.helper';

const ROOT = join(__dirname, '..', '..');
const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

interface Boot {
  pid: number;
  exited: Promise<number | null>;
  stdout: () => string;
  stop: () => void;
}

/** `node <build>/main.js` under bash, so a test can set its open-file limit first (`ulimit -n`). */
function boot(main: string, env: Record<string, string>, ulimit?: number): Boot {
  const limit = ulimit === undefined ? '' : `ulimit -n ${ulimit}; `;
  const child = spawn('bash', ['-c', `${limit}exec "$0" "$1"`, process.execPath, main], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      AUTH_SECRET: '6OoyotJrXWBsV1UhHrsecH/sXnTDroahCO3eiEw5PK4=',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    pid: child.pid!,
    exited: once(child, 'exit').then(([code]) => code as number | null),
    stdout: () => out,
    stop: () => void (child.exitCode === null && child.kill('SIGKILL')),
  };
}

/** Listening TCP sockets the process holds on `port`: its socket fds matched in /proc/net/tcp*. */
async function listeningSockets(pid: number, port: number): Promise<number> {
  const fds = await readdir(`/proc/${pid}/fd`);
  const links = await Promise.all(
    fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')),
  );
  const inodes = new Set(links.map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1]).filter(Boolean));
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const row of rows) {
      const cols = row.trim().split(/\s+/);
      // local_address is ADDR:PORT, st 0A is LISTEN, inode is the 10th column.
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A' && inodes.has(cols[9])) count++;
    }
  }
  return count;
}

const until = async (check: () => boolean, what: string, ms = 30_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`no ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describeOnLinux('Accept sockets and the open-file limit (the production build)', () => {
  let build: ProductionBuild;
  const running: Boot[] = [];
  beforeAll(async () => {
    build = await buildProduction();
  }, 180_000);
  afterEach(() => running.forEach((server) => server.stop()));
  afterAll(() => build?.remove());

  it('listens on one socket by default', async () => {
    const port = await freePort();
    const server = boot(build.main, { PORT: String(port) });
    running.push(server);
    await until(() => server.stdout().includes('Listening on'), 'Listening line');
    expect(await listeningSockets(server.pid, port)).toBe(1);
  }, 60_000);

  it('listens on ACCEPT_SOCKETS sockets when asked', async () => {
    const port = await freePort();
    const server = boot(build.main, { PORT: String(port), ACCEPT_SOCKETS: '4' });
    running.push(server);
    await until(() => server.stdout().includes('Listening on'), 'Listening line');
    expect(await listeningSockets(server.pid, port)).toBe(4);
  }, 60_000);

  it('exits 1 with an error line naming the fd limit when the sockets exceed `ulimit -n`', async () => {
    const port = await freePort();
    const server = boot(build.main, { PORT: String(port), ACCEPT_SOCKETS: '128' }, 60);
    running.push(server);
    expect(await server.exited).toBe(1);
    const lines = server
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      context: 'Bootstrap',
      msg: expect.stringMatching(/^Boot failed: listen EMFILE.*ulimit -n is 60/),
    });
    // Never ready: no Listening line before the failure.
    expect(server.stdout()).not.toContain('Listening on');
  }, 60_000);

  it.each([
    ['PORT', '1'],
    ['PORT', '4'],
    ['METRICS_PORT', '1'],
  ])(
    'with %s taken (ACCEPT_SOCKETS=%s), one JSON error line naming it after the boot lines, then exit 1',
    async (variable, sockets) => {
      const taken = createServer().listen(0, '127.0.0.1');
      await once(taken, 'listening');
      const { port } = taken.address() as { port: number };
      const server = boot(build.main, {
        PORT: '0',
        METRICS_HOST: '127.0.0.1',
        [variable]: String(port),
        ACCEPT_SOCKETS: sockets,
      });
      running.push(server);
      try {
        expect(await server.exited).toBe(1);
      } finally {
        taken.close();
      }
      const lines = server
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      // Nest's own boot lines were written too, not lost in a buffer the exit dropped.
      expect(lines).toContainEqual(expect.objectContaining({ context: 'InstanceLoader' }));
      expect(lines.at(-1)).toMatchObject({
        level: 'error',
        context: 'Bootstrap',
        msg:
          `Boot failed: ${variable} ${port} is already in use on 127.0.0.1 (EADDRINUSE): ` +
          `stop what holds it (another npm start or npm run dev?), or set ${variable} to another port`,
      });
    },
    60_000,
  );
});
