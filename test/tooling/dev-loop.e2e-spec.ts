import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { bestSwapAction } from '../../src/actions/best-swap/best-swap.action';
import { sendTokenAction } from '../../src/actions/send-token/send-token.action';
import type { ActionSample } from '../../src/contract/action.types';
import { prepareDev, type DevSetup } from '../../scripts/dev/dev-env';
import { createTestApp, postJson } from '../support/app.factory';
import { signAndSend } from '../../src/testing/evm/wallet';

const ROOT = join(__dirname, '..', '..');
const DEFAULT_FILE = join(ROOT, 'src', 'evm', 'chains', 'chains.default.json');

type Entry = { tokens: Record<string, { address: string }>; routers: Record<string, string> };
type Chains = Record<string, Entry & { nftCollection?: string; rpcUrl: string }>;
const chainsOf = (path: string): Chains =>
  (JSON.parse(readFileSync(path, 'utf8')) as { chains: Chains }).chains;
const addresses = (entry: Entry): string[] =>
  [...Object.values(entry.tokens).map((t) => t.address), ...Object.values(entry.routers)].map(
    (address) => getAddress(address),
  );

/** The chain, contracts and configuration `npm run dev` prepares, then the service on them. */
describe('npm run dev: the local chain and its configuration', () => {
  let setup: DevSetup;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    setup = await prepareDev({ DEV_CHAIN_PORT: '0' });
    app = await createTestApp({ env: setup.env as Record<string, string> });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await setup?.stop();
  });

  it('runs the service in development mode with limits out of a developer’s reach', () => {
    expect(setup.env).toMatchObject({
      NODE_ENV: 'development',
      RATE_LIMIT_IP_MAX: '1000000',
      RATE_LIMIT_USER_MAX: '1000000',
      CHAIN_CONFIG_FILE: setup.devChain.chainFile,
    });
  });

  it('deploys the DEX fixture at the addresses the default file lists for the development chain', () => {
    const local = chainsOf(setup.devChain.chainFile)[43113];
    expect(local.rpcUrl).toBe(setup.devChain.chain.rpcUrl);
    expect(addresses(local)).toEqual(addresses(chainsOf(DEFAULT_FILE)[31337]));
  });

  it('lists the NFT collection mint-nft mints on, deployed on the chain', async () => {
    const { nftCollection, chain, chainFile } = setup.devChain;
    expect(chainsOf(chainFile)[43113].nftCollection).toBe(nftCollection);
    expect(await chain.publicClient.getCode({ address: nftCollection })).toMatch(
      /^0x[0-9a-f]{100,}$/,
    );
  });

  it.each([
    ['/api/send-token', sendTokenAction.samples],
    ['/api/best-swap', bestSwapAction.samples],
  ])(
    'answers the declared samples of %s with a transaction the chain accepts',
    async (path, samples) => {
      const [account] = setup.devChain.chain.accounts;
      for (const sample of (samples ?? []) as ActionSample[]) {
        expect(sample.userAddress).toBe(account.address);
        const { status, body } = await postJson<{ serializedTransaction: string; chainId: number }>(
          app,
          path,
          { params: sample.params },
          { 'x-user-address': account.address },
        );
        expect({ status, chainId: body.chainId }).toEqual({ status: 200, chainId: 43113 });
        const { receipt } = await signAndSend(
          setup.devChain.chain,
          account,
          body.serializedTransaction,
        );
        expect(receipt.status).toBe('success');
      }
    },
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1');
    server.once('error', reject);
    server.once('listening', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with the output so far once it matches; rejects should the process exit first. */
function outputMatching(
  child: ChildProcess,
  output: () => string,
  pattern: RegExp,
): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const match = pattern.exec(output());
      if (!match) return;
      child.stdout?.off('data', check);
      child.off('exit', exited);
      resolve(match);
    };
    const exited = (): void =>
      reject(new Error(`exited before printing ${pattern}:\n${output().slice(-3000)}`));
    child.stdout?.on('data', check);
    child.once('exit', exited);
    check();
  });
}

/** The script itself: chain, watcher build (into a directory of its own), service, Ctrl-C. */
describe('npm run dev: the watcher', () => {
  const outDir = join('dist', `dev-e2e-${process.pid}`);
  let child: ChildProcess | undefined;

  afterAll(() => {
    if (child?.pid && child.exitCode === null && child.signalCode === null)
      process.kill(-child.pid, 'SIGKILL');
    rmSync(join(ROOT, outDir), { recursive: true, force: true });
  });

  it('serves the service on the local chain and stops both on Ctrl-C', async () => {
    const port = await freePort();
    let output = '';
    child = spawn('npm', ['run', 'dev'], {
      cwd: ROOT,
      // Its own process group: Ctrl-C in a terminal signals the whole group.
      detached: true,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        DEV_CHAIN_PORT: '0',
        DEV_OUT_DIR: outDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const running = child;
    running.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    running.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // Once every process holding its output (npm, the script, the watcher, the service) is gone.
    const closed = once(running, 'close');
    const [, rpcUrl] = await outputMatching(running, () => output, /dev: chain 43113 at (\S+)\n/);
    await outputMatching(
      running,
      () => output,
      new RegExp(`Listening on http://127\\.0\\.0\\.1:${port}`),
    );
    const base = `http://127.0.0.1:${port}`;

    expect((await fetch(`${base}/health`)).status).toBe(200);
    const [sample] = bestSwapAction.samples ?? [];
    const swap = await fetch(`${base}/api/best-swap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-address': String(sample.userAddress) },
      body: JSON.stringify({ params: sample.params }),
    });
    expect({
      status: swap.status,
      chainId: ((await swap.json()) as { chainId: number }).chainId,
    }).toEqual({
      status: 200,
      chainId: 43113,
    });

    process.kill(-(running.pid as number), 'SIGINT');
    await closed;
    expect(output).toContain('dev: stopped (service exit 0), chain stopped');
    await expect(fetch(rpcUrl, { method: 'POST' })).rejects.toThrow();
  }, 120_000);
});
