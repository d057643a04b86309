import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { declaredActions } from '../../src/testing';
import { runtimeGraph } from '../../src/testing/runtime-graph';
import { createTestApp } from '../support/app.factory';

const ROOT = join(__dirname, '..', '..');

async function node(
  args: readonly string[],
  cwd = ROOT,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output };
}

/** A browser app's use of the client, with calls the types must refuse. */
const CONSUMER = `import { actions, calculator, portfolio, sendToken } from './actions';

export async function use(): Promise<number> {
  const options = { baseUrl: 'http://localhost:3000' };
  const answer = await calculator({ operation: 'add', a: 1, b: 2 }, options);
  const result: number = answer.success && answer.data ? answer.data.result : 0;
  // @ts-expect-error: "power" is not one of the calculator's operations
  await calculator({ operation: 'power', a: 1, b: 2 }, options);
  // @ts-expect-error: b is required
  await calculator({ operation: 'add', a: 1 }, options);
  // @ts-expect-error: a is a number
  await calculator({ operation: 'add', a: '1', b: 2 }, options);
  // @ts-expect-error: the calculator's data has no such field
  console.log(answer.data?.total);
  // @ts-expect-error: portfolio needs the acting user
  await portfolio({ timeframe: '7d' }, options);
  await portfolio({ timeframe: '7d' }, { ...options, userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });
  // @ts-expect-error: a recipient is an address
  await sendToken({ token: 'USDC', recipient: 'bob', amount: '1' }, { ...options, userAddress: '0x1' });
  await actions.sendToken(
    { token: 'USDC', recipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '1' },
    { ...options, userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  );
  return result;
}
`;

describe('npm run client: a typed client from the declarations', () => {
  let dir: string;
  let out: string;
  let app: NestFastifyApplication;
  /** The paths the app declares: the client has a function for each, a team's own included. */
  let declared: string[];

  beforeAll(async () => {
    app = await createTestApp();
    declared = declaredActions(app).map(({ action }) => action.path);
    dir = mkdtempSync(join(tmpdir(), 'typed-client-'));
    out = join(dir, 'actions.ts');
    const generated = await node([
      '-r',
      'ts-node/register/transpile-only',
      'scripts/client.ts',
      '--out',
      out,
    ]);
    expect(generated).toMatchObject({
      code: 0,
      output: expect.stringContaining(`${declared.length} actions written`),
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a function for every action the app declares', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const client = require(out) as { actions: Record<string, unknown> };
    expect(Object.keys(client.actions)).toHaveLength(declared.length);
    expect(Object.values(client.actions).every((f) => typeof f === 'function')).toBe(true);
  });

  it('loads nothing but its own files at run time: it bundles for a browser', () => {
    expect(runtimeGraph(out).packages).toEqual([]);
  });

  it('compiles a consumer, and refuses the wrong calls (each @ts-expect-error must meet an error)', async () => {
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER);
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2023',
        lib: ['ES2023', 'DOM'],
        module: 'commonjs',
        moduleResolution: 'bundler',
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        skipLibCheck: true,
        // A browser app: no Node types.
        types: [],
      },
      files: ['consumer.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
    const tsc = await node([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir]);
    expect(tsc).toEqual({ code: 0, output: '' });
    // Without its directive, a wrong call is a compile error naming the mistake.
    writeFileSync(join(dir, 'consumer.ts'), CONSUMER.replace(/\/\/ @ts-expect-error.*\n/g, ''));
    const wrong = await node([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toContain(`'"power"' is not assignable`);
    expect(wrong.output).toContain(`Property 'b' is missing`);
    expect(wrong.output).toContain(`Property 'total' does not exist`);
    expect(wrong.output).toContain(`Property 'userAddress' is missing`);
  }, 120_000);

  it('runs an action against the service, answering the typed data', async () => {
    await app.listen(0, '127.0.0.1');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const client = require(out) as {
      calculator: (
        values: { operation: string; a: number; b: number },
        options: { baseUrl: string },
      ) => Promise<unknown>;
    };
    const answer = await client.calculator(
      { operation: 'multiply', a: 6, b: 7 },
      { baseUrl: await app.getUrl() },
    );
    expect(answer).toMatchObject({ success: true, data: { result: 42 } });
  });
});
