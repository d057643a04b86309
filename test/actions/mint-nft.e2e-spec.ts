import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Abi, type Account, type Address, type HDAccount, parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { loadNftStorageConfig } from '../../src/actions/mint-nft/nft-storage.config';
import { contentIdOf } from '../../src/actions/mint-nft/storage/content-id';
import { NftStorage } from '../../src/actions/mint-nft/storage/nft-storage.service';
import { S3Bucket } from '../../src/actions/mint-nft/storage/s3-bucket';
import { type LocalS3, startLocalS3 } from '../support/s3-server';
import { describeActionConformance } from '../../src/testing';
import { createTestApp } from '../support/app.factory';
import { deploy } from '../../src/testing/evm/contracts';
import { writeChainFile } from '../../src/testing/evm/dex-fixture';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { nftCollectionArtifact } from '../../src/testing/evm/nft-collection';
import { signAndSend } from '../../src/testing/evm/wallet';
import { pdf, png } from '../../src/testing/sample-files';

const FUJI = 43113;
const PATH = '/api/mint-nft';

interface Minted {
  status: number;
  /** The transaction answer's intent (X-Action-Intent). */
  intent: string | null;
  body: Record<string, unknown> & {
    params?: { functionName: string; args: Record<string, string> };
  };
}

/** What a store holds, marks included: how many files (objects) and their bytes together. */
interface StoreSize {
  files: number;
  bytes: number;
}

function directorySize(dir: string): StoreSize {
  const size = { files: 0, bytes: 0 };
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    size.files += 1;
    size.bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return size;
}

async function bucketSize(bucket: S3Bucket): Promise<StoreSize> {
  const objects = await bucket.list('');
  return {
    files: objects.length,
    bytes: objects.reduce((total, object) => total + (object.Size ?? 0), 0),
  };
}

/** The URLs a mint of this image, name and description names, worked out from the bytes alone. */
function wouldBe(
  base: string,
  image: Buffer,
  name: string,
): { image: string; uri: string; metadataBytes: number } {
  const imageUrl = `${base}/nft/${contentIdOf(image, 'image/png')}`;
  const metadata = Buffer.from(JSON.stringify({ name, description: '', image: imageUrl }));
  const uri = `${base}/nft/${contentIdOf(metadata, 'application/json')}`;
  return { image: imageUrl, uri, metadataBytes: metadata.length };
}

const id = (uri: string): string => uri.slice(uri.lastIndexOf('/') + 1);

/** The local chain passes for Fuji, the chain the action declares. */
describe('Mint an NFT from an uploaded image, on a local EVM', () => {
  let chain: LocalChain;
  let user: HDAccount;
  let collection: Address;
  let abi: Abi;
  let storageDir: string;
  let app: NestFastifyApplication;
  let base: string;
  let unconfigured: NestFastifyApplication;
  let s3: LocalS3;
  let onS3: NestFastifyApplication;
  /** A second replica on the same bucket: the per-user cap counts across both. */
  let onS3Replica: NestFastifyApplication;
  let bucket: S3Bucket;
  let s3Base: string;
  let replicaBase: string;

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
    };
    storageDir = join(mkdtempSync(join(tmpdir(), 'nft-e2e-')), 'store');
    const actions = [MintNftModule];
    s3 = await startLocalS3();
    bucket = new S3Bucket(loadNftStorageConfig(s3.env).s3!);
    const onBucket = {
      CHAIN_CONFIG_FILE: writeChainFile({ [FUJI]: { ...fuji, nftCollection: collection } }),
      ...s3.env,
      NFT_PENDING_MAX_PER_USER: '3',
    };
    [app, unconfigured, onS3, onS3Replica] = await Promise.all([
      createTestApp({
        env: {
          CHAIN_CONFIG_FILE: writeChainFile({ [FUJI]: { ...fuji, nftCollection: collection } }),
          NFT_STORAGE_DIR: storageDir,
        },
        actions,
      }),
      createTestApp({ env: { CHAIN_CONFIG_FILE: writeChainFile({ [FUJI]: fuji }) }, actions }),
      createTestApp({ env: onBucket, actions }),
      createTestApp({ env: onBucket, actions }),
    ]);
    // A real socket, so token URIs name a host a client can fetch.
    await Promise.all([app, onS3, onS3Replica].map((a) => a.listen(0, '127.0.0.1')));
    [base, s3Base, replicaBase] = await Promise.all(
      [app, onS3, onS3Replica].map((a) => a.getUrl()),
    );
  }, 60_000);

  afterAll(async () => {
    bucket?.destroy();
    await Promise.all([app, unconfigured, onS3, onS3Replica].map((a) => a?.close()));
    await s3?.stop();
    await chain?.stop();
  });

  // The declaration's sample names the image's caption; the kit uploads an image of its own.
  describeActionConformance(() => app, '/api/mint-nft');

  /** Posts the form as the platform's proxy does: multipart, context as `_sdk_context`, wallet header. */
  async function mint(
    fields: Record<string, string | Blob>,
    url = `${base}${PATH}`,
    from: Account = user,
  ): Promise<Minted> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields))
      form.append(name, value, ...(value instanceof Blob ? ['upload.png'] : []));
    form.append('_sdk_context', JSON.stringify({ userAddress: from.address, sourceChain: FUJI }));
    form.append('action', 'Mint an NFT');
    const response = await fetch(url, {
      method: 'POST',
      body: form,
      headers: { 'x-wallet-address': from.address },
    });
    return {
      status: response.status,
      intent: response.headers.get('x-action-intent'),
      body: (await response.json()) as Minted['body'],
    };
  }

  const read = <T>(functionName: string, args: unknown[]): Promise<T> =>
    chain.publicClient.readContract({ address: collection, abi, functionName, args }) as Promise<T>;

  it('mints the uploaded image: owner and token URI on chain, the same bytes behind the URI', async () => {
    const image = png(320, 200, 7);
    const { status, body } = await mint({
      image: new Blob([image], { type: 'image/png' }),
      name: 'Sunset',
      description: 'Over the bay',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      chainId: FUJI,
      abi: [expect.objectContaining({ name: 'safeMint' })],
      params: { functionName: 'safeMint', args: { to: user.address, name: 'Sunset' } },
    });
    const tokenUri = body.params!.args.uri;
    expect(tokenUri).toMatch(new RegExp(`^${base}/nft/[0-9a-f]{64}\\.json$`));
    // Named from the bytes alone, as the refusals below work out their would-be URLs.
    expect(wouldBe(base, image, 'Sunset').image).toBe(body.params!.args.image);

    const { receipt } = await signAndSend(chain, user, body.serializedTransaction as string);
    expect(receipt.status).toBe('success');
    const [transfer] = parseEventLogs({
      abi,
      logs: receipt.logs,
      eventName: 'Transfer',
    }) as unknown as { args: { tokenId: bigint } }[];
    const { tokenId } = transfer.args;
    expect(await read<Address>('ownerOf', [tokenId])).toBe(user.address);
    expect(await read<string>('tokenURI', [tokenId])).toBe(tokenUri);

    const metadata = await fetch(tokenUri);
    expect(metadata.headers.get('content-type')).toBe('application/json');
    expect(metadata.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const json = (await metadata.json()) as { name: string; description: string; image: string };
    expect(json).toEqual({
      name: 'Sunset',
      description: 'Over the bay',
      image: body.params!.args.image,
    });
    const stored = await fetch(json.image);
    expect(stored.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await stored.arrayBuffer()).equals(image)).toBe(true);
  });

  it('mints to the recipient given, and stores an image uploaded twice once', async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const image = png(64, 64, 9);
    const first = await mint({ image: new Blob([image]), name: 'One' });
    const second = await mint({ image: new Blob([image]), name: 'Two', recipient });
    expect(second.body.params!.args.image).toBe(first.body.params!.args.image);
    const { receipt } = await signAndSend(chain, user, second.body.serializedTransaction as string);
    const [transfer] = parseEventLogs({
      abi,
      logs: receipt.logs,
      eventName: 'Transfer',
    }) as unknown as { args: { tokenId: bigint } }[];
    expect(await read<Address>('ownerOf', [transfer.args.tokenId])).toBe(recipient);
    const imageFile = first.body.params!.args.image.split('/').pop()!;
    expect(readdirSync(storageDir).filter((name) => name === imageFile)).toHaveLength(1);
  });

  describe('refuses, as {error, code}', () => {
    it.each<[string, () => Record<string, string | Blob>, number, string]>([
      ['no image', () => ({ name: 'x' }), 400, 'image is required'],
      ['no name', () => ({ image: new Blob([png(2, 2)]) }), 400, 'name is required'],
      [
        'a name over 100 characters',
        () => ({ image: new Blob([png(2, 2)]), name: 'n'.repeat(101) }),
        400,
        'name must be at most 100 characters',
      ],
      [
        'a description over 1000 characters',
        () => ({ image: new Blob([png(2, 2)]), name: 'x', description: 'd'.repeat(1001) }),
        400,
        'description must be at most 1000 characters',
      ],
      [
        'a PDF',
        () => ({ image: new Blob([pdf()], { type: 'image/png' }), name: 'x' }),
        400,
        'image must be of type image/png, image/jpeg, image/webp, image/gif (got application/pdf)',
      ],
      [
        'an image wider than 4096',
        () => ({ image: new Blob([png(4097, 1)]), name: 'x' }),
        400,
        'image must be at most 4096 pixels wide',
      ],
      [
        'an image over 5 MB',
        () => ({ image: new Blob([png(1, 1), Buffer.alloc(5 * 1024 * 1024)]), name: 'x' }),
        413,
        'image must be at most 5242880 bytes',
      ],
      [
        'a malformed recipient',
        () => ({ image: new Blob([png(2, 2)]), name: 'x', recipient: '0x12' }),
        400,
        'recipient must be a valid address',
      ],
    ])('%s', async (_, fields, status, error) => {
      const before = readdirSync(storageDir, { withFileTypes: true }).length;
      const answer = await mint(fields());
      // The refusal's message and data (the parameter it names) ride along; never `success`.
      expect(answer).toEqual({
        status,
        intent: null, // a refusal records no intent
        body: expect.objectContaining({
          error,
          code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR',
        }),
      });
      expect(answer.body).not.toHaveProperty('success');
      expect(readdirSync(storageDir, { withFileTypes: true })).toHaveLength(before);
    });

    it('503 NOT_CONFIGURED on a chain without a collection', async () => {
      await unconfigured.listen(0, '127.0.0.1');
      const answer = await mint(
        { image: new Blob([png(2, 2)]), name: 'x' },
        `${await unconfigured.getUrl()}${PATH}`,
      );
      expect(answer).toEqual({
        status: 503,
        intent: null,
        body: {
          error: 'NFT minting is not configured on Local Fuji (chain 43113)',
          code: 'NOT_CONFIGURED',
        },
      });
    });
  });

  describe('a mint the simulation refuses stores nothing', () => {
    it.each<[string, () => string, () => StoreSize | Promise<StoreSize>]>([
      ['in the local directory', () => base, () => directorySize(storageDir)],
      ['in the S3 bucket', () => s3Base, () => bucketSize(bucket)],
    ])('%s; the same mint by a user who can pay stores both files', async (_, at, size) => {
      const poor = privateKeyToAccount(generatePrivateKey());
      const image = png(30, 30, at() === base ? 21 : 22);
      const fields = (): Record<string, Blob | string> => ({
        image: new Blob([image]),
        name: 'Refused',
      });
      const before = await size();
      const refused = await mint(fields(), `${at()}${PATH}`, poor);
      expect(refused).toEqual({
        status: 400,
        intent: null,
        body: expect.objectContaining({ error: expect.stringContaining('gas') }),
      });
      expect(await size()).toEqual(before);
      const urls = wouldBe(at(), image, 'Refused');
      for (const url of [urls.image, urls.uri]) expect((await fetch(url)).status).toBe(404);

      const paid = await mint(fields(), `${at()}${PATH}`);
      expect(paid.status).toBe(200);
      expect(paid.body.params!.args).toMatchObject({ uri: urls.uri, image: urls.image });
      for (const url of [urls.image, urls.uri]) expect((await fetch(url)).status).toBe(200);
      // Two items, each with its pending mark, and the user's mark on the upload.
      expect(await size()).toEqual({
        files: before.files + 5,
        bytes: before.bytes + image.length + urls.metadataBytes,
      });
    });
  });

  it('refuses the upload past NFT_PENDING_MAX_PER_USER with 429, counted across replicas, storing nothing', async () => {
    const minter = chain.accounts[3];
    for (const [i, at] of [s3Base, replicaBase, s3Base].entries()) {
      const fields = { image: new Blob([png(24, 24, 30 + i)]), name: `Pending ${i}` };
      expect((await mint(fields, `${at}${PATH}`, minter)).status).toBe(200);
    }
    const before = await bucketSize(bucket);
    const image = png(24, 24, 40);
    const fields = (): Record<string, Blob | string> => ({
      image: new Blob([image]),
      name: 'One too many',
    });
    const refused = await mint(fields(), `${replicaBase}${PATH}`, minter);
    expect(refused).toEqual({
      status: 429,
      intent: null,
      body: expect.objectContaining({
        error: 'Too many NFT uploads pending',
        code: 'TOO_MANY_PENDING_UPLOADS',
      }),
    });
    expect(await bucketSize(bucket)).toEqual(before);
    const urls = wouldBe(replicaBase, image, 'One too many');
    for (const url of [urls.image, urls.uri]) expect((await fetch(url)).status).toBe(404);
    // Another user's pending uploads are theirs: this one's do not hold them back.
    expect((await mint(fields(), `${replicaBase}${PATH}`)).status).toBe(200);
  });

  it('serves stored files read-only, and nothing else', async () => {
    for (const path of [
      '/nft/nothing',
      `/nft/${'0'.repeat(64)}.png`,
      '/nft/..%2F..%2Fpackage.json',
    ]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBeNull();
    }
    const [stored] = readdirSync(storageDir).filter((name) => !name.startsWith('pending'));
    expect((await fetch(`${base}/nft/${stored}`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/nft/${stored}`, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${base}/nft/${stored}`)).status).toBe(200);
  });

  it('mints on the S3 store: files served from the bucket, kept once the mint is confirmed', async () => {
    const image = png(48, 48, 11);
    const { status, body, intent } = await mint(
      { image: new Blob([image]), name: 'On S3' },
      `${s3Base}${PATH}`,
    );
    expect(status).toBe(200);
    expect(intent).toEqual(expect.any(String));
    const tokenUri = body.params!.args.uri;
    expect(tokenUri).toMatch(new RegExp(`^${s3Base}/nft/[0-9a-f]{64}\\.json$`));
    const stored = await fetch(body.params!.args.image);
    expect(stored.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await stored.arrayBuffer()).equals(image)).toBe(true);

    // The mint's hook (mint-nft.outcomes.ts) keeps the files once the reported mint is confirmed.
    const storage = onS3.get(NftStorage);
    const keep = storage.keepMintCall.bind(storage);
    const kept = new Promise<boolean>((resolve) => {
      jest.spyOn(storage, 'keepMintCall').mockImplementation(async (...args) => {
        const answer = await keep(...args);
        resolve(answer);
        return answer;
      });
    });
    // Before it is confirmed, the upload is pending: a sweep past the TTL would delete it.
    const { receipt } = await signAndSend(chain, user, body.serializedTransaction as string);
    expect(receipt.status).toBe('success');
    const report = await fetch(`${s3Base}/api/transactions/${intent}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hash: receipt.transactionHash }),
    });
    expect(report.status).toBe(200);
    expect(await kept).toBe(true);
    // Kept, it no longer counts against the user's pending uploads (NFT_PENDING_MAX_PER_USER).
    const marks = await bucket.list(`pending-by/${user.address.toLowerCase()}/`);
    expect(marks.map((mark) => mark.Key)).not.toContainEqual(expect.stringContaining(id(tokenUri)));
    // Past the pending TTL, what was minted stays (the other tests' pending uploads go).
    const swept = await storage.sweep(Date.now() + 2 * 86_400_000);
    for (const uri of [tokenUri, body.params!.args.image]) expect(swept).not.toContain(id(uri));
    expect((await fetch(tokenUri)).status).toBe(200);
  });

  it('sweeps what an unconfirmed mint uploaded once its pending time is over', async () => {
    const { status, body } = await mint({ image: new Blob([png(40, 40, 12)]), name: 'Never sent' });
    expect(status).toBe(200);
    const storage = app.get(NftStorage);
    const swept = await storage.sweep(Date.now() + 2 * 86_400_000);
    expect(swept).toEqual(expect.arrayContaining([id(body.params!.args.uri)]));
    expect((await fetch(body.params!.args.uri)).status).toBe(404);
  });
});
