import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request, type ClientRequest } from 'node:http';
import { freePort } from './redis.helper';

const BODY = JSON.stringify({ params: { operation: 'multiply', a: 6, b: 7 } });
/** Clients keep connections alive, as browsers and load balancers do. */
const keepAlive = new Agent({ keepAlive: true });

/** Resolves when the child prints a line matching `pattern` (no sleeps: waits on output). */
function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`server exited (${code}) before ${pattern}: ${seen.slice(-500)}`)),
    );
  });
}

/** A POST whose headers and first half of body are sent now; `finish()` sends the rest. */
function startSlowPost(port: number): {
  req: ClientRequest;
  answer: Promise<{ status: number; body: string }>;
  finish: () => void;
} {
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/calculator',
    agent: keepAlive,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  // Awaited later, after SIGTERM; handled now so an early failure is not an unhandled rejection.
  answer.catch(() => undefined);
  req.write(BODY.slice(0, 10));
  return { req, answer, finish: () => req.end(BODY.slice(10)) };
}

describe('SIGTERM under load', () => {
  let server: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    server = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/main.ts'], {
      cwd: `${__dirname}/..`,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        RATE_LIMIT_IP_MAX: '100000',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await waitForOutput(server, /Listening on/);
  }, 60_000);
  afterAll(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
  });

  it('finishes every accepted request, refuses new ones, and exits 0', async () => {
    const inFlight = Array.from({ length: 20 }, () => startSlowPost(port));
    // Each request is accepted once its socket is connected and its headers are on the wire.
    await Promise.all(
      inFlight.map(({ req }) =>
        once(req, 'socket').then(([socket]) => once(socket as NodeJS.EventEmitter, 'connect')),
      ),
    );
    const fast = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`http://127.0.0.1:${port}/api/calculator`, {
          method: 'POST',
          body: BODY,
          headers: { 'content-type': 'application/json' },
        }).then((r) => r.status),
      ),
    );
    expect(fast).toEqual(Array(20).fill(200));

    const exited = once(server, 'exit');
    const draining = waitForOutput(server, /SIGTERM received/);
    server.kill('SIGTERM');
    await draining;
    await expect(
      fetch(`http://127.0.0.1:${port}/health`, { headers: { connection: 'close' } }),
    ).rejects.toThrow();

    for (const { finish } of inFlight) finish();
    const answers = await Promise.all(inFlight.map(({ answer }) => answer));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const { body } of answers)
      expect(JSON.parse(body)).toMatchObject({ success: true, data: { result: 42 } });

    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  }, 60_000);
});
