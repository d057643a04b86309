import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildProduction,
  type ProductionBuild,
  ProductionServer,
} from '../support/production.server';

/**
 * Issue 45: what a boot loads is what the configured actions need. A production build started
 * with a preloaded recorder (NODE_OPTIONS) notes every file `require` loads and the built-in
 * modules Node loaded, answers one calculator request, and writes the list as it exits on SIGTERM.
 * With the default configuration (no Redis, S3, tracing, webhooks or DEBUG_UI) none of the
 * libraries loaded on demand may be among them: each cost the boot tens of milliseconds
 * (docs/performance.md, "The boot").
 */
const RECORDER = `
const Module = require('node:module');
const { writeFileSync } = require('node:fs');
const load = Module._load;
const files = new Set();
Module._load = function (request, parent, isMain) {
  try { files.add(Module._resolveFilename(request, parent, isMain)); } catch {}
  return load.apply(this, arguments);
};
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule '));
  writeFileSync(process.env.BOOT_LOADS_FILE, JSON.stringify({ files: [...files], builtins }));
});
`;

/** Loaded on demand only: package (or built-in) → what loads it. */
const ON_DEMAND: Record<string, string> = {
  'node_modules/undici/': 'the first check a transaction action asks of a node',
  'node_modules/jose/': 'the first session token issued or read',
  'node_modules/image-size/': 'the first upload',
  'node_modules/magic-bytes.js/': 'the first upload',
  'node_modules/libphonenumber-js/':
    "class-validator's entry point (src/config/validator-subset.ts)",
  'node_modules/class-validator/cjs/index.js': 'class-validator as a whole',
  'node_modules/@aws-sdk/': 'NFT_STORAGE=s3',
  'node_modules/bullmq/': 'webhooks through Redis',
  'node_modules/ioredis/': 'REDIS_URL',
  'node_modules/@nestjs/swagger/': 'the interactive reference (/docs)',
  'node_modules/@opentelemetry/sdk-trace': 'tracing',
  '/debug/': 'DEBUG_UI',
  'node_modules/@x402/': 'a paid action served (swap-quote: X402_PAY_TO)',
  'node_modules/@modelcontextprotocol/sdk/dist/cjs/server/': 'the first request to /mcp',
  'node_modules/zod/': "the first request to /mcp (the MCP SDK's protocol types)",
};

describe('What a production boot loads', () => {
  let build: ProductionBuild;
  let scratch: string;
  let server: ProductionServer | undefined;
  let loaded: { files: string[]; builtins: string[] };

  beforeAll(async () => {
    [build, scratch] = await Promise.all([
      buildProduction(),
      mkdtemp(join(tmpdir(), 'boot-loads-')),
    ]);
    const recorder = join(scratch, 'recorder.js');
    const out = join(scratch, 'loads.json');
    await writeFile(recorder, RECORDER);
    server = await ProductionServer.start(build.main, 0, {
      NODE_OPTIONS: `--require ${recorder}`,
      BOOT_LOADS_FILE: out,
    });
    const port = /Listening on http:\/\/[^:]+:(\d+)/.exec(server.log)?.[1];
    const answer = await fetch(`http://127.0.0.1:${port}/api/calculator`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: { operation: 'add', a: 2, b: 3 } }),
    });
    expect(answer.status).toBe(200);
    server.signal('SIGTERM');
    expect(await server.exited).toBe(0);
    loaded = JSON.parse(await readFile(out, 'utf8')) as typeof loaded;
  }, 240_000);

  afterAll(async () => {
    server?.stop();
    await build?.remove();
    await rm(scratch, { recursive: true, force: true });
  });

  it('recorded the boot (Nest, Fastify and the service itself are there)', () => {
    const has = (part: string): boolean => loaded.files.some((file) => file.includes(part));
    expect(has('node_modules/@nestjs/core/')).toBe(true);
    expect(has('node_modules/fastify/')).toBe(true);
    expect(has(`${build.main.replace(/main\.js$/, '')}kit/`)).toBe(true);
  });

  it('leaves out every library loaded on demand', () => {
    const found = Object.entries(ON_DEMAND).flatMap(([part, when]) =>
      loaded.files.some((file) => file.includes(part)) ? [`${part} (loaded with ${when})`] : [],
    );
    expect(found).toEqual([]);
  });

  it("never loads Node's bundled undici (http's WebSocket getters: src/http-esm-view.ts)", () => {
    expect(loaded.builtins).toContain('NativeModule http');
    expect(loaded.builtins.filter((name) => name.includes('undici'))).toEqual([]);
  });
});
