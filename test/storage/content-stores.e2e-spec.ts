import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { loadNftStorageConfig } from '../../src/actions/mint-nft/nft-storage.config';
import { contentIdOf } from '../../src/actions/mint-nft/storage/content-id';
import type { ContentStore } from '../../src/actions/mint-nft/storage/content-store';
import { LocalDirectoryStore } from '../../src/actions/mint-nft/storage/local-directory.store';
import { S3Store } from '../../src/actions/mint-nft/storage/s3.store';
import { type LocalS3, startLocalS3 } from '../support/s3-server';

const read = async (body: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
};
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const HOUR = 3_600_000;

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(() => s3?.stop());

/** The same behaviour from both stores: one on a directory, one on a real S3-protocol server. */
describe.each<[string, () => ContentStore]>([
  [
    'LocalDirectoryStore',
    () =>
      new LocalDirectoryStore(
        loadNftStorageConfig({ NFT_STORAGE_DIR: join(mkdtempSync(join(tmpdir(), 'nft-')), 'd') }),
      ),
  ],
  // Each test gets its own bucket prefix-free store: ids are content hashes, so tests use
  // their own bytes to stay apart.
  ['S3Store', () => new S3Store(loadNftStorageConfig(s3.env))],
])('%s', (_, make) => {
  it('puts, opens, reports and measures content by its id', async () => {
    const store = make();
    const bytes = unique('put');
    const id = contentIdOf(bytes, 'image/png');
    const before = await store.measure();
    expect(await store.has(id)).toBe(false);
    expect(await store.put(id, bytes, 'image/png')).toBe(true);
    expect(await store.put(id, bytes, 'image/png')).toBe(false);
    expect(await store.has(id)).toBe(true);
    const opened = (await store.open(id))!;
    expect([opened.mimeType, opened.size]).toEqual(['image/png', bytes.length]);
    expect((await read(opened.body)).equals(bytes)).toBe(true);
    expect(await store.measure()).toBe(before + bytes.length);
    expect(await store.open(contentIdOf(unique('absent'), 'image/png'))).toBeUndefined();
    expect(await store.open('../../etc/passwd')).toBeUndefined();
    expect(await store.open(`pending/${id}`)).toBeUndefined();
  });

  it('sweeps pending content older than the cut-off, keeps what was kept', async () => {
    const store = make();
    const [minted, unminted] = [unique('minted'), unique('unminted')];
    const mintedId = contentIdOf(minted, 'image/png');
    const unmintedId = contentIdOf(unminted, 'image/png');
    await store.put(mintedId, minted, 'image/png');
    await store.put(unmintedId, unminted, 'image/png');
    expect(await store.keep(mintedId)).toBe(true);
    expect(await store.keep(contentIdOf(unique('never'), 'image/png'))).toBe(false);
    // Nothing is older than an hour ago: nothing goes.
    expect(await store.sweep(new Date(Date.now() - HOUR))).toEqual([]);
    const swept = await store.sweep(new Date(Date.now() + HOUR));
    expect(swept).toContain(unmintedId);
    expect(swept).not.toContain(mintedId);
    expect(await store.has(unmintedId)).toBe(false);
    expect(await store.has(mintedId)).toBe(true);
    // Kept content uploaded again stays kept: no new pending mark.
    expect(await store.put(mintedId, minted, 'image/png')).toBe(false);
    expect(await store.sweep(new Date(Date.now() + HOUR))).not.toContain(mintedId);
  });
});

describe('S3Store on the bucket', () => {
  it('answers the public URL when NFT_S3_PUBLIC_URL is set, this service otherwise', () => {
    const id = contentIdOf(PNG, 'image/png');
    const plain = new S3Store(loadNftStorageConfig(s3.env));
    const cdn = new S3Store(
      loadNftStorageConfig({ ...s3.env, NFT_S3_PUBLIC_URL: 'https://cdn.example/nft/' }),
    );
    expect(plain.uri(id, 'https://actions.example')).toBe(`https://actions.example/nft/${id}`);
    expect(cdn.uri(id, 'https://actions.example')).toBe(`https://cdn.example/nft/${id}`);
  });

  it('writes objects with their type and immutable cache headers, readable over plain HTTP', async () => {
    const store = new S3Store(loadNftStorageConfig(s3.env));
    const bytes = unique('http');
    const id = contentIdOf(bytes, 'image/png');
    await store.put(id, bytes, 'image/png');
    // What a public bucket (NFT_S3_PUBLIC_URL) serves: s3rver answers anonymous GETs.
    const response = await fetch(`${s3.endpoint}/nft/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('fails loudly on a bucket that does not exist', async () => {
    const store = new S3Store(loadNftStorageConfig({ ...s3.env, NFT_S3_BUCKET: 'missing-bucket' }));
    await expect(store.put(contentIdOf(PNG, 'image/png'), PNG, 'image/png')).rejects.toThrow();
  });
});

function unique(tag: string): Buffer {
  return Buffer.concat([PNG, Buffer.from(`${tag}-${Math.random()}`)]);
}
