import { resolve } from 'node:path';
import { loadNftStorageConfig } from './nft-storage.config';

const S3 = { NFT_STORAGE: 's3', NFT_S3_BUCKET: 'nft' };

describe('NFT storage configuration', () => {
  it('resolves NFT_STORAGE_DIR from the working directory, ./nft-storage by default', () => {
    expect(loadNftStorageConfig({})).toMatchObject({ kind: 'local', dir: resolve('nft-storage') });
    expect(loadNftStorageConfig({ NFT_STORAGE_DIR: '/srv/nft' }).dir).toBe('/srv/nft');
    expect(loadNftStorageConfig({})).toMatchObject({
      maxBytes: 1_073_741_824,
      pendingTtlMs: 86_400_000,
      pendingMaxPerUser: 20,
    });
    expect(loadNftStorageConfig({ NFT_PENDING_MAX_PER_USER: '3' }).pendingMaxPerUser).toBe(3);
    for (const bad of ['0', '1001', 'many'])
      expect(() => loadNftStorageConfig({ NFT_PENDING_MAX_PER_USER: bad })).toThrow(
        'NFT_PENDING_MAX_PER_USER',
      );
    expect(loadNftStorageConfig({}).s3).toBeUndefined();
  });

  it('caps the /nft streams at 32 by default, refusing a cap of none or past 10,000 at boot', () => {
    expect(loadNftStorageConfig({}).filesMaxStreams).toBe(32);
    expect(loadNftStorageConfig({ NFT_FILES_MAX_STREAMS: '8' }).filesMaxStreams).toBe(8);
    for (const bad of ['0', '10001', '-1', 'lots'])
      expect(() => loadNftStorageConfig({ NFT_FILES_MAX_STREAMS: bad })).toThrow(
        'NFT_FILES_MAX_STREAMS',
      );
  });

  it('reads the S3 store, with the bucket required and the region from AWS_REGION by default', () => {
    expect(() => loadNftStorageConfig({ NFT_STORAGE: 's3' })).toThrow('NFT_S3_BUCKET');
    expect(loadNftStorageConfig({ ...S3, AWS_REGION: 'eu-west-3' }).s3).toEqual({
      bucket: 'nft',
      region: 'eu-west-3',
      endpoint: undefined,
      forcePathStyle: false,
      publicUrl: undefined,
    });
    expect(
      loadNftStorageConfig({
        ...S3,
        NFT_S3_ENDPOINT_URL: 'http://minio:9000',
        NFT_S3_FORCE_PATH_STYLE: 'true',
        NFT_S3_PUBLIC_URL: 'https://cdn.example/nft/',
      }).s3,
    ).toMatchObject({
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      publicUrl: 'https://cdn.example/nft',
    });
  });

  it('refuses half a key pair and a bad endpoint, never showing the secret', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const half = (): unknown => loadNftStorageConfig({ ...S3, NFT_S3_SECRET_ACCESS_KEY: secret });
    expect(half).toThrow('NFT_S3_ACCESS_KEY_ID and NFT_S3_SECRET_ACCESS_KEY go together');
    expect(half).not.toThrow(secret.slice(0, 8));
    expect(() => loadNftStorageConfig({ ...S3, NFT_S3_ENDPOINT_URL: 'minio:9000' })).toThrow(
      'NFT_S3_ENDPOINT_URL',
    );
    expect(() => loadNftStorageConfig({ NFT_STORAGE: 'ipfs' })).toThrow('NFT_STORAGE');
  });
});
