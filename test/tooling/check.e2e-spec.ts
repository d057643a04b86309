import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { prepareDev, type DevSetup } from '../../scripts/dev/dev-env';
import { createTestApp } from '../support/app.factory';

const ROOT = join(__dirname, '..', '..');

/**
 * The app under check runs inside a Jest worker, whose module registry makes each first load
 * (the MCP SDK's server on the first /mcp request) many times slower than production's, and
 * the machine may be busy. These rows get room; the 2 s budget is held against the production
 * build by the smoke test (test/smoke.js runs `npm run check` with its default).
 */
const ROOM = ['--max-ms', '30000'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run check -- <args>`, as a child process, awaited to its exit. */
async function check(...args: string[]): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join('scripts', 'check.ts'), ...args],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** The table's rows as [what, target, result, detail] (columns are two or more spaces apart). */
const rowsOf = (table: string): string[][] =>
  table
    .split('\n')
    .slice(2, -1)
    .map((line) => line.split(/ {2,}/));

describe('npm run check against the dev loop, offline', () => {
  let setup: DevSetup;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    // What `npm run dev` prepares: the local chain with the contracts, stand-ins for the weather
    // and price APIs; nothing here reaches the internet.
    setup = await prepareDev({ DEV_CHAIN_PORT: '0' });
    const { CHAIN_CONFIG_FILE, WEATHER_GEOCODING_URL, WEATHER_FORECAST_URL, PRICE_API_URL } =
      setup.env;
    app = await createTestApp({
      env: {
        CHAIN_CONFIG_FILE: String(CHAIN_CONFIG_FILE),
        WEATHER_GEOCODING_URL: String(WEATHER_GEOCODING_URL),
        WEATHER_FORECAST_URL: String(WEATHER_FORECAST_URL),
        PRICE_API_URL: String(PRICE_API_URL),
        NODE_ENV: 'production',
        // Production writes token URIs only from a bounded Host (mint-nft's sample mints).
        ALLOWED_HOSTS: '127.0.0.1',
        // my-transactions declares user: 'verified': production signs sessions with a set key.
        AUTH_SECRET: 'O5cJkE7Dmh0+y3foUu7WQhMPlxwVEruWTByoIbRRSCk=',
      },
    });
    await app.listen(0, '127.0.0.1');
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await setup?.stop();
  });

  it('stands in for every outside service a shipped action calls, on loopback', () => {
    for (const name of ['WEATHER_GEOCODING_URL', 'WEATHER_FORECAST_URL', 'PRICE_API_URL'])
      expect([name, setup.env[name]]).toEqual([
        name,
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      ]);
  });

  it('passes: every mini-app, URL, preflight and declared sample, printed as a table', async () => {
    const { code, stdout } = await check(await app.getUrl(), ...ROOM);
    const rows = rowsOf(stdout);
    expect(rows.filter(([, , result]) => result === 'FAIL')).toEqual([]);
    expect(code).toBe(0);
    const samples = rows.filter(
      ([what, , result]) => what.startsWith('sample') && result === 'PASS',
    );
    expect(samples.map(([, target]) => target)).toEqual(
      expect.arrayContaining([
        'POST /api/calculator',
        'POST /api/weather',
        'POST /api/portfolio',
        'POST /api/send-token',
        'POST /api/best-swap',
      ]),
    );
    // A verified action's sample, sent without a session (only the user's wallet signs one).
    expect(rows).toContainEqual([
      'sample 1',
      'POST /api/my-transactions',
      'PASS',
      '401, asks for a session (user: verified)',
      expect.stringMatching(/ms$/),
    ]);
    // The same actions through their MCP tools, with the official SDK's client.
    expect(rows).toContainEqual([
      'MCP tools',
      'POST /mcp',
      'PASS',
      expect.stringMatching(/^\d+ tools listed$/),
      expect.stringMatching(/ms$/),
    ]);
    const tools = rows.filter(([what, , result]) => what === 'MCP tool' && result === 'PASS');
    expect(tools.map(([, target]) => target)).toEqual(
      expect.arrayContaining([
        'tools/call calculator',
        'tools/call send_token',
        'tools/call best_swap',
        'tools/call mint_nft',
      ]),
    );
    expect(rows).toContainEqual([
      'MCP tool',
      'tools/call my_transactions',
      'PASS',
      '401, asks for a session (user: verified)',
      expect.stringMatching(/ms$/),
    ]);
    expect(stdout).toMatch(/^WHAT +TARGET +RESULT +DETAIL +TIME$/m);
    expect(stdout).toMatch(/: \d+ passed, 0 failed, \d+ skipped\n$/);
  }, 60_000);

  it('--action checks one action and the mini-app holding it, nothing else', async () => {
    const { code, stdout } = await check(await app.getUrl(), ...ROOM, '--action', '/api/weather');
    const rows = rowsOf(stdout);
    expect(code).toBe(0);
    const actionTargets = rows
      .filter(([what]) => what.startsWith('sample') || what === 'CORS preflight')
      .map(([, target]) => target.replace(/^\w+ /, ''));
    expect(new Set(actionTargets)).toEqual(new Set(['/api/weather']));
    expect(rows.filter(([what]) => what === 'mini-app document')).toHaveLength(1);
  }, 60_000);

  it('--action fails on a path no mini-app publishes', async () => {
    const { code, stdout } = await check(await app.getUrl(), ...ROOM, '--action', '/api/nowhere');
    expect(code).toBe(1);
    expect(rowsOf(stdout)).toContainEqual(
      expect.arrayContaining(['action', '/api/nowhere', 'FAIL', 'no mini-app publishes it']),
    );
  }, 60_000);
});

/**
 * A deployment with one fault per check: its documents point at another host over http, its
 * preflight leaves out the proxy's headers, its action never answers.
 */
function brokenDeployment(): Server {
  const elsewhere = 'http://deploy.example';
  const document = {
    url: `${elsewhere}/api/mini-apps/tools`,
    icon: `${elsewhere}/icons/tools.svg`,
    title: 'Tools',
    description: 'Broken on purpose',
    baseUrl: elsewhere,
    actions: [
      {
        type: 'dynamic',
        label: 'Slow',
        chains: { source: 43113 },
        path: '/api/slow',
        responseType: 'data',
      },
    ],
  };
  const routes: Record<string, (res: ServerResponse) => void> = {
    'GET /api/metadata': (res) =>
      json(res, {
        title: 'Broken',
        description: 'Broken',
        baseUrl: elsewhere,
        miniApps: [
          {
            id: 'tools',
            metadataUrl: document.url,
            icon: document.icon,
            actionPaths: ['/api/slow'],
          },
        ],
      }),
    'GET /api/mini-apps/tools': (res) => json(res, document),
    'GET /api/openapi.json': (res) =>
      json(res, {
        openapi: '3.1.0',
        paths: { '/api/slow': { post: { 'x-action-samples': [{ params: { a: 1 } }] } } },
      }),
    'OPTIONS /api/slow': (res) =>
      res
        .writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': 'content-type',
        })
        .end(),
    // Never answered: the check gives up at its deadline.
    'POST /api/slow': () => undefined,
  };
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = routes[`${req.method} ${req.url}`];
    if (route) route(res);
    else res.writeHead(404).end();
  });
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

describe('npm run check against a broken deployment', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = brokenDeployment().listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // The deadline only has to be missed by the route that never answers: 8 s leaves the answering
  // routes room on a loaded machine (300 ms did not: a busy CI's first request missed it).
  it('fails, naming each cause in its row', async () => {
    const { code, stdout } = await check(base, '--max-ms', '8000');
    const failures = rowsOf(stdout)
      .filter(([, , result]) => result === 'FAIL')
      .map(([what, target, , detail]) => `${what} | ${target} | ${detail}`);
    expect(code).toBe(1);
    expect(failures).toEqual([
      expect.stringMatching(
        /^published URLs \| GET \/api\/metadata \| baseUrl is not https: http:\/\/deploy\.example\/; baseUrl points at http:\/\/deploy\.example, not the deployment/,
      ),
      expect.stringMatching(
        /^published URLs \| \/api\/mini-apps\/tools \| url is not https.*icon points at http:\/\/deploy\.example.*actions\[0\] points at http:\/\/deploy\.example/,
      ),
      expect.stringMatching(
        /^CORS preflight \| OPTIONS \/api\/slow \| access-control-allow-headers lacks x-user-address, x-wallet-address/,
      ),
      'sample 1 | POST /api/slow | no answer within 8000 ms',
    ]);
    // No /mcp there (404): the MCP rows are skipped, not failed.
    expect(rowsOf(stdout)).toContainEqual([
      'MCP tools',
      'POST /mcp',
      'SKIP',
      '404: no MCP endpoint (MCP=off)',
    ]);
  }, 60_000);
});

describe('npm run check usage', () => {
  it.each([[[]], [['ftp://example.com']], [['https://example.com', '--max-ms', 'soon']]])(
    'exits 2 with the usage line for %j',
    async (args: string[]) => {
      const { code, stderr } = await check(...args);
      expect({ code, usage: stderr.includes('usage: npm run check -- <base-url>') }).toEqual({
        code: 2,
        usage: true,
      });
    },
    30_000,
  );
});
