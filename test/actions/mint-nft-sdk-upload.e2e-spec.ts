import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Abi, type Address, type HDAccount, parseEventLogs } from 'viem';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { createTestApp } from '../support/app.factory';
import { deploy } from '../../src/testing/evm/contracts';
import { writeChainFile } from '../../src/testing/evm/dex-fixture';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { nftCollectionArtifact } from '../../src/testing/evm/nft-collection';
import { signAndSend } from '../../src/testing/evm/wallet';
import { png } from '../../src/testing/sample-files';

const FUJI = 43113;

/**
 * The platform SDK's upload as its header builder labels it (`Content-Type: application/json`
 * over a multipart body, shared/platform/mini-app-platform.md) mints on a local chain that
 * passes for Fuji (issue 21.3).
 */
describe('Mint an NFT from an SDK upload labelled JSON', () => {
  let chain: LocalChain;
  let user: HDAccount;
  let collection: Address;
  let abi: Abi;
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    chain = await startLocalChain({ chainId: FUJI });
    user = chain.accounts[1];
    const artifact = nftCollectionArtifact();
    abi = artifact.abi;
    collection = await deploy(chain, chain.wallet(chain.accounts[0]), artifact);
    const fuji = {
      name: 'Local Fuji',
      rpcUrl: chain.rpcUrl,
      nativeCurrency: { symbol: 'AVAX', decimals: 18 },
      nftCollection: collection,
    };
    app = await createTestApp({
      env: {
        CHAIN_CONFIG_FILE: writeChainFile({ [FUJI]: fuji }),
        NFT_STORAGE_DIR: join(mkdtempSync(join(tmpdir(), 'nft-sdk-e2e-')), 'store'),
      },
      actions: [MintNftModule],
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await chain?.stop();
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
    const { receipt } = await signAndSend(chain, user, answer.serializedTransaction as string);
    expect(receipt.status).toBe('success');
    const [transfer] = parseEventLogs({ abi, logs: receipt.logs, eventName: 'Transfer' });
    expect(transfer).toBeDefined();
  });
});
