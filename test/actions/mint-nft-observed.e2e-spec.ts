import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HDAccount, Hex } from 'viem';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { NftStorage } from '../../src/actions/mint-nft/storage/nft-storage.service';
import {
  deserializeTransaction,
  signAndSend,
  startTestChain,
  type TestChain,
} from '../../src/testing';
import { png } from '../../src/testing/sample-files';
import { createTestApp } from '../support/app.factory';
import { until } from '../support/chain-driver.helper';
import { formBody } from '../support/multipart.helper';
import type { IntentData } from '../support/outcomes.helper';
import { type LocalS3, startLocalS3 } from '../support/s3-server';

const FUJI = 43113;
/** The shortest pending time the configuration takes (NFT_PENDING_TTL_S is at least 60). */
const PENDING_TTL_S = 60;

interface Answered {
  intent: string;
  serializedTransaction: string;
  image: string;
  uri: string;
}

/**
 * What the platform's SDK users get: the mini-app signs the answered mint and reports nothing
 * (the SDK hands it the parsed body alone, no X-Action-Intent, no way to report a hash). The
 * chain follower sees the mint confirmed, mint-nft's outcome hook keeps its files, and a sweep
 * past NFT_PENDING_TTL_S leaves them; the same sweep deletes what a mint never signed uploaded.
 * On a local Hardhat chain passing for Fuji, on the local-directory store and on S3 (s3rver).
 */
describe('mint-nft files kept once the mint is seen on the chain, never reported', () => {
  let testChain: TestChain;
  let s3: LocalS3;
  const apps: Record<'local' | 's3', NestFastifyApplication> = {} as never;
  const bases: Record<'local' | 's3', string> = {} as never;

  beforeAll(async () => {
    testChain = await startTestChain({ chainId: FUJI });
    s3 = await startLocalS3();
    const env = {
      ...testChain.env,
      OUTCOME_POLL_MS: '50',
      NFT_PENDING_TTL_S: String(PENDING_TTL_S),
    };
    const storeDir = join(mkdtempSync(join(tmpdir(), 'nft-observed-')), 'store');
    [apps.local, apps.s3] = await Promise.all([
      createTestApp({ env: { ...env, NFT_STORAGE_DIR: storeDir }, actions: [MintNftModule] }),
      createTestApp({ env: { ...env, ...s3.env }, actions: [MintNftModule] }),
    ]);
    // A real socket, so the answer's URLs name a host a client can fetch.
    for (const store of ['local', 's3'] as const) {
      await apps[store].listen(0, '127.0.0.1');
      bases[store] = await apps[store].getUrl();
    }
  }, 90_000);

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await Promise.all(Object.values(apps).map((app) => app.close()));
    await s3?.stop();
    await testChain?.stop();
  });

  /** Posts the form as the platform's proxy does: multipart, context as `_sdk_context`. */
  async function mint(
    store: 'local' | 's3',
    user: HDAccount,
    image: Buffer,
    name: string,
  ): Promise<Answered> {
    const { body, contentType } = await formBody([
      ['image', { bytes: image, filename: 'upload.png', type: 'image/png' }],
      ['name', name],
      ['description', 'Seen on the chain'],
      ['_sdk_context', JSON.stringify({ userAddress: user.address, sourceChain: FUJI })],
      ['action', 'Mint an NFT'],
    ]);
    const response = await fetch(`${bases[store]}/api/mint-nft`, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, 'x-wallet-address': user.address },
    });
    const answer = (await response.json()) as {
      serializedTransaction: string;
      params: { functionName: string; args: Record<string, string> };
    };
    expect(response.status).toBe(200);
    const intent = response.headers.get('x-action-intent');
    expect(intent).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const { image: imageUrl, uri } = answer.params.args;
    for (const url of [imageUrl, uri]) expect(url.startsWith(`${bases[store]}/nft/`)).toBe(true);
    return {
      intent: intent!,
      serializedTransaction: answer.serializedTransaction,
      image: imageUrl,
      uri,
    };
  }

  /** GET /api/transactions/<intent>: the intent as the service tells it. */
  async function intentOf(store: 'local' | 's3', intent: string): Promise<IntentData> {
    const response = await fetch(`${bases[store]}/api/transactions/${intent}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: IntentData }).data;
  }

  /** The file behind a URL: its status and bytes. */
  async function served(url: string): Promise<{ status: number; bytes: Buffer }> {
    const response = await fetch(url);
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  /**
   * Resolves with what the outcome hook's keepMintCall answered for this calldata, once it did:
   * the intent reads `confirmed` as soon as the transition lands, the hook runs just after.
   */
  function hookKept(storage: NftStorage, data: Hex): Promise<boolean> {
    const keep = storage.keepMintCall.bind(storage);
    return new Promise((resolve, reject) => {
      jest.spyOn(storage, 'keepMintCall').mockImplementation((called, owner) => {
        const kept = keep(called, owner);
        if (called === data) kept.then(resolve, reject);
        return kept;
      });
    });
  }

  /** The sweeper's pass, with its clock past the pending time of everything uploaded so far. */
  const sweepPastTtl = (store: 'local' | 's3'): Promise<string[]> =>
    apps[store].get(NftStorage).sweep(Date.now() + (PENDING_TTL_S + 1) * 1000);

  const id = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

  describe.each([
    ['the local directory', 'local' as const, 0],
    ['S3 (s3rver)', 's3' as const, 1],
  ])('on %s', (_, store, n) => {
    it('a mint signed by the wallet and never reported turns confirmed, and its files survive the sweep', async () => {
      const user = testChain.users[n];
      const image = png(64, 48, 50 + n);
      const answer = await mint(store, user, image, `Observed ${store}`);
      const before = { image: await served(answer.image), uri: await served(answer.uri) };
      expect(before.image).toEqual({ status: 200, bytes: image });
      expect(before.uri.status).toBe(200);
      expect(JSON.parse(before.uri.bytes.toString('utf8'))).toEqual({
        name: `Observed ${store}`,
        description: 'Seen on the chain',
        image: answer.image,
      });
      expect(await intentOf(store, answer.intent)).toMatchObject({ status: 'answered' });

      const { data } = deserializeTransaction(answer.serializedTransaction);
      const kept = hookKept(apps[store].get(NftStorage), data!);
      // The wallet signs and sends; nobody calls POST /api/transactions.
      const { receipt } = await signAndSend(testChain.chain, user, answer.serializedTransaction);
      expect(receipt.status).toBe('success');

      let seen: IntentData | undefined;
      await until(async () => {
        seen = await intentOf(store, answer.intent);
        return seen.status !== 'answered' && seen.status !== 'submitted';
      }, `intent ${answer.intent} settled`);
      expect(seen).toMatchObject({
        intent: answer.intent,
        action: '/api/mint-nft',
        chainId: FUJI,
        status: 'confirmed',
        hash: receipt.transactionHash,
        blockNumber: receipt.blockNumber.toString(),
      });
      expect(await kept).toBe(true);

      const swept = await sweepPastTtl(store);
      expect(swept).not.toContain(id(answer.image));
      expect(swept).not.toContain(id(answer.uri));
      expect(await served(answer.image)).toEqual(before.image);
      expect(await served(answer.uri)).toEqual(before.uri);
    }, 30_000);

    it('a mint answered and never signed is swept: its URLs answer 404', async () => {
      const user = testChain.users[2 + n];
      const answer = await mint(store, user, png(64, 48, 60 + n), `Never signed ${store}`);
      for (const url of [answer.image, answer.uri]) expect((await served(url)).status).toBe(200);

      const swept = await sweepPastTtl(store);
      expect(swept).toEqual(expect.arrayContaining([id(answer.image), id(answer.uri)]));
      for (const url of [answer.image, answer.uri]) expect((await served(url)).status).toBe(404);
      // Nothing was seen on the chain for it: the follower left it open.
      expect(await intentOf(store, answer.intent)).toMatchObject({ status: 'answered' });
    }, 30_000);
  });
});
