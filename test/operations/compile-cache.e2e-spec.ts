import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildProduction,
  type ProductionBuild,
  ProductionServer,
} from '../support/production.server';
import { freePort } from '../support/redis.helper';

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
describe('The compile cache of the production build', () => {
  let build: ProductionBuild;
  let scratch: string;
  let server: ProductionServer | undefined;

  beforeAll(async () => {
    [build, scratch] = await Promise.all([
      buildProduction(),
      mkdtemp(join(tmpdir(), 'compile-cache-')),
    ]);
  }, 180_000);
  afterEach(() => server?.stop());
  afterAll(async () => {
    await build?.remove();
    await rm(scratch, { recursive: true, force: true });
  });

  async function bootAndStop(env: Record<string, string>): Promise<number | null> {
    // Unset (ProductionServer passes the rest of this environment on).
    delete process.env.NODE_COMPILE_CACHE;
    const started = (server = await ProductionServer.start(build.main, await freePort(), env));
    started.signal('SIGTERM');
    return started.exited;
  }

  it('keeps the code of the modules a boot loads in the temporary directory', async () => {
    await expect(bootAndStop({ TMPDIR: scratch })).resolves.toBe(0);
    // Hundreds of modules (the service's own, Nest, Fastify, viem...): far more than a few.
    expect(await filesUnder(join(scratch, 'node-compile-cache'))).toBeGreaterThan(200);
    // A production boot and stop: seconds on a busy 2-core machine, past Jest's 5 s default.
  }, 30_000);

  it('boots and stops as usual where the cache cannot be written', async () => {
    // A file where the directory should be: creating the cache fails.
    const notADirectory = join(scratch, 'file');
    await writeFile(notADirectory, '');
    await expect(bootAndStop({ TMPDIR: notADirectory })).resolves.toBe(0);
    expect(server?.log).not.toMatch(/compile cache/i);
  }, 30_000);
});
