import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildProduction,
  type ProductionBuild,
  ProductionServer,
} from '../support/production.server';

/** Every file under `dir`, however deep (Node keeps one directory per version and user). */
async function filesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

/**
 * The production build enables Node's compile cache itself (src/compile-cache.ts): with no
 * NODE_COMPILE_CACHE, which would make Node enable it on its own, the cache lands in the
 * temporary directory; where that cannot be written the service boots as without it.
 */
interface Boot {
  code: number | null;
  log: string;
}

describe('The compile cache of the production build', () => {
  let build: ProductionBuild;
  let scratch: string;
  const servers: ProductionServer[] = [];
  let cached: Boot;
  let uncachable: Boot;

  /** Boots the build on a port of its own choosing (PORT=0), waits for it to listen, stops it. */
  async function bootAndStop(env: Record<string, string>): Promise<Boot> {
    const server = await ProductionServer.start(build.main, 0, env);
    servers.push(server);
    server.signal('SIGTERM');
    return { code: await server.exited, log: server.log };
  }

  // The build and both boots, each waited on by its event (exit, `Listening on`, exit), in the
  // one hook whose budget is sized for the build on a busy machine: no test of its own is timed.
  beforeAll(async () => {
    [build, scratch] = await Promise.all([
      buildProduction(),
      mkdtemp(join(tmpdir(), 'compile-cache-')),
    ]);
    // Unset (ProductionServer passes the rest of this environment on).
    delete process.env.NODE_COMPILE_CACHE;
    // A file where the directory should be: creating the cache fails.
    const notADirectory = join(scratch, 'file');
    await writeFile(notADirectory, '');
    [cached, uncachable] = await Promise.all([
      bootAndStop({ TMPDIR: scratch }),
      bootAndStop({ TMPDIR: notADirectory }),
    ]);
  }, 240_000);
  afterAll(async () => {
    for (const server of servers) server.stop();
    await build?.remove();
    await rm(scratch, { recursive: true, force: true });
  });

  it('keeps the code of the modules a boot loads in the temporary directory', async () => {
    expect(cached.code).toBe(0);
    // Hundreds of modules (the service's own, Nest, Fastify, viem...): far more than a few.
    expect(await filesUnder(join(scratch, 'node-compile-cache'))).toBeGreaterThan(200);
  });

  it('boots and stops as usual where the cache cannot be written', () => {
    expect(uncachable.code).toBe(0);
    expect(uncachable.log).not.toMatch(/compile cache/i);
  });
});
