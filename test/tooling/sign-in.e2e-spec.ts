import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { mnemonicToAccount } from 'viem/accounts';
import { startTestChain, type TestChain } from '../../src/testing';
import { DEV_MNEMONIC } from '../../src/testing/chain-types';
import { createTestApp } from '../support/app.factory';
import { closedPortUrl } from '../support/upstream.server';

const ROOT = join(__dirname, '..', '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run sign-in -- <args>` as a developer types it. */
async function signIn(args: string[]): Promise<Run> {
  const child = spawn('npm', ['run', '--silent', 'sign-in', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** The script against the service on a real port and a local chain, as with npm run dev. */
describe('npm run sign-in: a bearer token for a dev account', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    testChain = await startTestChain();
    app = await createTestApp({ env: testChain.env });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  it('prints a token /api/my-transactions accepts as the account, on the chain the node answers with', async () => {
    const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 1 });
    const run = await signIn([
      '--account',
      '1',
      '--rpc',
      testChain.chain.rpcUrl,
      '--service',
      base,
    ]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 0,
      stderr: expect.stringContaining(
        `sign-in: dev account 1 ${account.address} signed in on chain 43113 at ${base}, until `,
      ),
    });
    // The token alone on standard output, for TOKEN=$(npm run --silent sign-in …).
    expect(run.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = run.stdout.trim();

    const mine = await fetch(`${base}/api/my-transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ params: { limit: 5 } }),
    });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({
      success: true,
      data: { address: account.address, transactions: [] },
    });
    // Without it, the verified action refuses the same request.
    const anonymous = await fetch(`${base}/api/my-transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-address': account.address },
      body: JSON.stringify({ params: { limit: 5 } }),
    });
    expect(anonymous.status).toBe(401);
  }, 60_000);

  it('says why it cannot: a bad option, no chain to ask, a service that is down', async () => {
    const down = await closedPortUrl();
    const [usage, noChain, noService] = await Promise.all([
      signIn(['--account', 'alice']),
      signIn(['--rpc', down, '--service', base]),
      signIn(['--chain', '43113', '--service', down]),
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('sign-in: --account alice: an account index or an address');
    expect(noChain.code).toBe(1);
    expect(noChain.stderr).toContain(
      `sign-in: no chain answers at ${down} (is npm run dev running?`,
    );
    expect(noService.code).toBe(1);
    expect(noService.stderr).toMatch(/^sign-in: .+ refused dev account 0 0xf39F/m);
    for (const run of [usage, noChain, noService]) expect(run.stdout).toBe('');
  }, 120_000);
});
