import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, getAddress, type Hash, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestChain, type TestChain } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { freePort } from '../support/redis.helper';

const ROOT = join(__dirname, '..', '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run sign -- <args>` as a developer types it, the answer on standard input if given. */
async function sign(args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  const child = spawn('npm', ['run', '--silent', 'sign', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/** What `curl -si` prints for an answer: status line, headers, blank line, body. */
async function asCurlPrints(response: Response): Promise<string> {
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`);
  return [`HTTP/1.1 ${response.status} OK`, ...headers, '', await response.text()].join('\r\n');
}

const hashOf = (run: Run): Hash => /^sign: hash (0x[0-9a-f]{64})$/m.exec(run.stdout)?.[1] as Hash;

/** The sign script against a local chain and the service on a real port, as with npm run dev. */
describe('npm run sign: an answer signed with a dev account', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let base: string;
  const dir = mkdtempSync(join(tmpdir(), 'sign-e2e-'));

  beforeAll(async () => {
    testChain = await startTestChain();
    // The follower looks at the chain every 100 ms (3 s by default).
    app = await createTestApp({ env: { ...testChain.env, OUTCOME_POLL_MS: '100' } });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A send-token answer to `user`, moving 0.1 of the native coin to a fresh address. */
  async function sendTokenAnswer(user: Address): Promise<{ response: Response; to: Address }> {
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const response = await fetch(`${base}/api/send-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wallet-address': user },
      body: JSON.stringify({ params: { token: 'AVAX', recipient: to, amount: '0.1' } }),
    });
    expect(response.status).toBe(200);
    return { response, to };
  }

  async function expectLanded(hash: Hash, from: Address, to: Address): Promise<void> {
    const client = testChain.chain.publicClient;
    expect(getAddress((await client.getTransaction({ hash })).from)).toBe(from);
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.1'));
  }

  it('reads curl -i output from stdin, finds the intent in X-Action-Intent, and waits for it to be confirmed', async () => {
    const [account0] = testChain.chain.accounts;
    const { response, to } = await sendTokenAnswer(account0.address);
    const intent = response.headers.get('x-action-intent') as string;
    expect(intent).toMatch(/^[\w-]{32}$/);
    const port = new URL(testChain.chain.rpcUrl).port;
    // The dev loop's variables name the chain and the service, as in a shell running npm run dev.
    const run = await sign(
      ['-'],
      { DEV_CHAIN_PORT: port, PORT: new URL(base).port },
      await asCurlPrints(response),
    );

    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`dev account 0 ${account0.address}, chain 43113`);
    expect(run.stdout).toMatch(/^sign: receipt success in block \d+/m);
    expect(run.stdout).toContain(`sign: intent ${intent} confirmed: The transaction is confirmed`);
    const hash = hashOf(run);
    await expectLanded(hash, account0.address, to);
    const read = await fetch(`${base}/api/transactions/${intent}`);
    expect(((await read.json()) as { data: unknown }).data).toMatchObject({
      status: 'confirmed',
      hash,
    });
  }, 60_000);

  it('reads the ExecutionResponse from a file, the account by address and the intent by flag', async () => {
    const user = testChain.users[1];
    const { response, to } = await sendTokenAnswer(user.address);
    const intent = response.headers.get('x-action-intent') as string;
    const file = join(dir, 'answer.json');
    writeFileSync(file, await response.text());
    const run = await sign(
      [
        file,
        '--account',
        user.address,
        '--intent',
        intent,
        '--rpc',
        testChain.chain.rpcUrl,
        '--service',
        base,
      ],
      {},
    );

    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`dev account 2 ${user.address}`);
    expect(run.stdout).toContain(`sign: intent ${intent} confirmed`);
    await expectLanded(hashOf(run), user.address, to);
  }, 60_000);

  it('without an intent, signs, sends and says it has no intent to read', async () => {
    const [account0] = testChain.chain.accounts;
    const { response, to } = await sendTokenAnswer(account0.address);
    const run = await sign(['-', '--rpc', testChain.chain.rpcUrl], {}, await response.text());

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^sign: no intent to read/m);
    await expectLanded(hashOf(run), account0.address, to);
  }, 60_000);

  it('refuses an error answer (exit 2) and names a chain that does not answer (exit 1)', async () => {
    const refused = await fetch(`${base}/api/send-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: { token: 'AVAX' } }),
    });
    expect(refused.status).toBe(400);
    const bad = await sign(['-'], {}, await asCurlPrints(refused));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sign: the answer is an error, not a transaction: /);

    const { response } = await sendTokenAnswer(testChain.chain.accounts[0].address);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const down = await sign(['-', '--rpc', closed], {}, await response.text());
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`sign: no chain answers at ${closed} (is npm run dev running?`);
  }, 60_000);
});
