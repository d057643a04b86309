import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HDAccount, parseEventLogs } from 'viem';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { createTestApp } from '../support/app.factory';
import { signAndSend, startTestChain, type TestChain } from '../../src/testing';
import { nftCollectionArtifact } from '../../src/testing/evm/nft-collection';
import { png } from '../../src/testing/sample-files';

const FUJI = 43113;

/**
 * The platform SDK's upload as its header builder labels it (`Content-Type: application/json`
 * over a multipart body, shared/platform/mini-app-platform.md) mints on a local chain that
 * passes for Fuji (issue 21.3).
 */
describe('Mint an NFT from an SDK upload labelled JSON', () => {
  let testChain: TestChain;
  let user: HDAccount;
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    // The shipped chain file's Fuji, local, with its NFT collection deployed.
    testChain = await startTestChain({ chainId: FUJI });
    user = testChain.users[0];
    app = await createTestApp({
      env: {
        ...testChain.env,
        NFT_STORAGE_DIR: join(mkdtempSync(join(tmpdir(), 'nft-sdk-e2e-')), 'store'),
      },
      actions: [MintNftModule],
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  it('reads the body as multipart, answers the mint, and the mint lands', async () => {
    // What a browser's FormData makes of the SDK's form: the file, the text fields, the context.
    const form = new FormData();
    form.append('image', new Blob([png(320, 200, 3)], { type: 'image/png' }), 'sunset.png');
    form.append('name', 'Sunset');
    form.append('_sdk_context', JSON.stringify({ userAddress: user.address, sourceChain: FUJI }));
    form.append('action', 'Mint an NFT');
    const body = Buffer.from(await new Response(form).arrayBuffer());
    const response = await fetch(`${base}/api/mint-nft?name=Sunset`, {
      method: 'POST',
      body,
      headers: {
        'X-Sherry-Proxy': 'true',
        'X-Sherry-Version': '1.0.0',
        'Content-Type': 'application/json',
        'X-Timestamp': String(Date.now()),
        'X-Chain-ID': String(FUJI),
        'X-Wallet-Address': user.address,
      },
    });
    const answer = (await response.json()) as Record<string, unknown>;
    expect(response.status).toBe(200);
    expect(answer).toMatchObject({ chainId: FUJI, params: { functionName: 'safeMint' } });
    const serialized = answer.serializedTransaction as string;
    const { receipt } = await signAndSend(testChain.chain, user, serialized);
    expect(receipt.status).toBe('success');
    expect(receipt.to?.toLowerCase()).toBe(testChain.nftCollection.toLowerCase());
    const { abi } = nftCollectionArtifact();
    const [transfer] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'Transfer' });
    expect(transfer).toBeDefined();
  });
});
