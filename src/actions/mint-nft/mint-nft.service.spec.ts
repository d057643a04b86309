import { Logger } from '@nestjs/common';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeFunctionData, parseTransaction } from 'viem';
import { refusal } from '../../testing/action-refusal';
import { png } from '../../testing/sample-files';
import { chainsUnderTest } from '../../testing/chain-registry.helper';
import { loadTransactionConfig } from '../../evm/chains/chains.config';
import { ActionException, type UserContext, type UploadedImage } from '../../kit';
import { TransactionBuilder } from '../../evm/transaction';
import { sniffFile } from '../../kit/uploads/file-sniffer';
import { ERC721_SAFE_MINT } from './erc721-mint.abi';
import type { MintNftParams } from './mint-nft.action';
import { MintNftService } from './mint-nft.service';
import { loadNftStorageConfig } from './nft-storage.config';
import { LocalDirectoryStore } from './storage/local-directory.store';
import { NftStorage } from './storage/nft-storage.service';

const USER = '0x52908400098527886E0F7030069857D2E4169EE7';
const FRIEND = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const COLLECTION = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const BASE = 'https://actions.example';

/** The stored items in the order written: id, type and bytes. */
async function itemsOf(dir: string): Promise<Map<string, { bytes: Buffer; mimeType: string }>> {
  const store = new LocalDirectoryStore(loadNftStorageConfig({ NFT_STORAGE_DIR: dir }));
  const names = readdirSync(dir)
    .filter((name) => !name.startsWith('.') && !name.startsWith('pending'))
    .sort((a, b) => statSync(join(dir, a)).mtimeMs - statSync(join(dir, b)).mtimeMs);
  const items = new Map<string, { bytes: Buffer; mimeType: string }>();
  for (const id of names) {
    const opened = (await store.open(id))!;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body as AsyncIterable<Buffer>) chunks.push(chunk);
    items.set(id, { bytes: Buffer.concat(chunks), mimeType: opened.mimeType });
  }
  return items;
}

interface Service {
  mint: MintNftService;
  builder: TransactionBuilder;
  storage: NftStorage;
  store: LocalDirectoryStore;
  storeDir: string;
}

function service(nftCollection?: string, env: Record<string, string> = {}): Service {
  const dir = mkdtempSync(join(tmpdir(), 'mint-nft-'));
  const file = join(dir, 'chains.json');
  const fuji = {
    name: 'Fuji',
    rpcUrl: 'http://127.0.0.1:9',
    nativeCurrency: { symbol: 'AVAX', decimals: 18 },
  };
  writeFileSync(
    file,
    JSON.stringify({ chains: { 43113: { ...fuji, ...(nftCollection && { nftCollection }) } } }),
  );
  const { registry, rpc } = chainsUnderTest({ CHAIN_CONFIG_FILE: file });
  const builder = new TransactionBuilder(
    registry,
    loadTransactionConfig({ TX_SIMULATE: 'off' }),
    rpc,
  );
  const storeDir = join(dir, 'store');
  const config = loadNftStorageConfig({ NFT_STORAGE_DIR: storeDir, ...env });
  const store = new LocalDirectoryStore(config);
  const storage = new NftStorage(store, config);
  const mint = new MintNftService(builder, storage, registry);
  mint.onModuleInit();
  return { mint, builder, storage, store, storeDir };
}

/** The content files in the store (neither marks nor partial files). */
const files = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir).filter((name) => !name.startsWith('.') && !name.startsWith('pending'))
    : [];

const context = (sourceChain?: number): UserContext => ({
  requestId: 'r',
  userAddress: USER,
  sourceChain,
});
const image = sniffFile('cat.png', png(4, 4)) as UploadedImage;
const imageOf = (seed: number): UploadedImage =>
  sniffFile('cat.png', png(4, 4, seed)) as UploadedImage;
const params = (over: Partial<MintNftParams> = {}): MintNftParams => ({
  image,
  name: 'Cat',
  ...over,
});

describe('MintNftService', () => {
  it('stores the image and its ERC-721 metadata, and calls safeMint(user, metadata URI)', async () => {
    const { mint, storeDir } = service(COLLECTION);
    const response = await mint.build(params({ description: 'A cat' }), context(), BASE);
    const items = await itemsOf(storeDir);
    const imageId = [...items.keys()].find((id) => id.endsWith('.png'))!;
    const metadataId = [...items.keys()].find((id) => id.endsWith('.json'))!;
    expect(items.get(imageId)).toEqual({ bytes: image.bytes, mimeType: 'image/png' });
    const metadata = items.get(metadataId)!;
    expect(metadata.mimeType).toBe('application/json');
    expect(JSON.parse(metadata.bytes.toString())).toEqual({
      name: 'Cat',
      description: 'A cat',
      image: `${BASE}/nft/${imageId}`,
    });
    const tx = parseTransaction(response.serializedTransaction as `0x02${string}`);
    expect(tx.to).toBe(COLLECTION.toLowerCase());
    expect(decodeFunctionData({ abi: [ERC721_SAFE_MINT], data: tx.data! }).args).toEqual([
      USER,
      `${BASE}/nft/${metadataId}`,
    ]);
    expect(response).toMatchObject({
      chainId: 43113,
      abi: [ERC721_SAFE_MINT],
      params: {
        functionName: 'safeMint',
        args: {
          to: USER,
          uri: `${BASE}/nft/${metadataId}`,
          name: 'Cat',
          image: `${BASE}/nft/${imageId}`,
        },
      },
    });
  });

  it('mints to the recipient when one is given, and stores one image for two mints of it', async () => {
    const { mint, storeDir } = service(COLLECTION);
    await mint.build(params(), context(), BASE);
    const response = await mint.build(
      params({ name: 'Same cat', recipient: FRIEND }),
      context(),
      BASE,
    );
    expect(response.params?.args.to).toBe(FRIEND);
    const items = [...(await itemsOf(storeDir)).values()];
    expect(items.filter((item) => item.mimeType === 'image/png')).toHaveLength(1);
    expect(items).toHaveLength(3);
  });

  it('answers 503 NOT_CONFIGURED on a chain without a collection, storing nothing', async () => {
    const { mint, storeDir } = service();
    const error = await refusal(() => mint.build(params(), context(), BASE));
    expect([error.getStatus(), error.error, error.details.code]).toEqual([
      503,
      'NFT minting is not configured on Fuji (chain 43113)',
      'NOT_CONFIGURED',
    ]);
    expect(existsSync(storeDir)).toBe(false);
  });

  it('refuses a chain the action does not declare before storing anything', async () => {
    const { mint, storeDir } = service(COLLECTION);
    const error = await refusal(() => mint.build(params(), context(1), BASE));
    expect([error.getStatus(), error.details.code]).toEqual([400, 'UNSUPPORTED_CHAIN']);
    expect(existsSync(storeDir)).toBe(false);
  });

  it('writes nothing until the simulation passed, then both files', async () => {
    const { mint, builder, storeDir } = service(COLLECTION);
    const build = builder.build.bind(builder);
    const seen: string[][] = [];
    jest.spyOn(builder, 'build').mockImplementation((spec, ctx) => {
      seen.push(files(storeDir));
      return build(spec, ctx);
    });
    const response = await mint.build(params(), context(), BASE);
    expect(seen).toEqual([[]]);
    const named = [response.params!.args.uri, response.params!.args.image] as string[];
    expect(files(storeDir).sort()).toEqual(named.map((uri) => uri.split('/').pop()).sort());
  });

  it('stores nothing for a mint the simulation refuses', async () => {
    const { mint, builder, storeDir } = service(COLLECTION);
    const refused = new ActionException(400, 'You have 0 AVAX; this needs gas', {
      code: 'INSUFFICIENT_FUNDS',
    });
    jest.spyOn(builder, 'build').mockRejectedValue(refused);
    expect(await refusal(() => mint.build(params(), context(), BASE))).toBe(refused);
    expect(files(storeDir)).toEqual([]);
  });

  it('answers 503 STORAGE_UNAVAILABLE, not the mint, when the write fails after the simulation', async () => {
    const { mint, builder, store } = service(COLLECTION);
    const build = jest.spyOn(builder, 'build');
    jest.spyOn(store, 'put').mockRejectedValue(new Error('disk full'));
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const refused = await refusal(() => mint.build(params(), context(), BASE));
      expect([refused.getStatus(), refused.details.code]).toEqual([503, 'STORAGE_UNAVAILABLE']);
      expect(build).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
    }
  });

  it('refuses a user past NFT_PENDING_MAX_PER_USER with 429, storing nothing and simulating nothing', async () => {
    const { mint, builder, storage, storeDir } = service(COLLECTION, {
      NFT_PENDING_MAX_PER_USER: '2',
    });
    const first = await mint.build(params({ image: imageOf(1) }), context(), BASE);
    await mint.build(params({ image: imageOf(2) }), context(), BASE);
    // The same upload again adds nothing pending: it passes.
    await mint.build(params({ image: imageOf(2) }), context(), BASE);
    const before = files(storeDir).sort();
    const build = jest.spyOn(builder, 'build');
    const error = await refusal(() => mint.build(params({ image: imageOf(3) }), context(), BASE));
    expect([error.getStatus(), error.error, error.details.code]).toEqual([
      429,
      'Too many NFT uploads pending',
      'TOO_MANY_PENDING_UPLOADS',
    ]);
    expect(build).not.toHaveBeenCalled();
    expect(files(storeDir).sort()).toEqual(before);
    // Another user has a cap of their own; the first gets room back once a mint is confirmed.
    await mint.build(params({ image: imageOf(3) }), { ...context(), userAddress: FRIEND }, BASE);
    expect(await storage.keepMinted(first.params!.args.uri as string, USER)).toBe(true);
    await expect(mint.build(params({ image: imageOf(3) }), context(), BASE)).resolves.toBeDefined();
  });
});
