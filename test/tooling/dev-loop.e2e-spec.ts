import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
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

// The script itself, started, serving and stopped: test/tooling/dev-shutdown.e2e-spec.ts.
