import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver's fixed credentials: it checks every request's SigV4 signature against them. */
export const S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * A running local S3 server: its endpoint, the variables pointing the NFT store at its bucket, and
 * `stop`, which removes its files.
 */
export interface LocalS3 {
  endpoint: string;
  /** The NFT_* variables of an S3 store on this server's bucket. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver, in process) on loopback, with one empty bucket: the S3
 * store's tests talk to it over HTTP exactly as to AWS S3, R2 or MinIO (docs/testing.md).
 */
export async function startLocalS3(bucket = 'nft'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      NFT_STORAGE: 's3',
      NFT_S3_BUCKET: bucket,
      NFT_S3_REGION: 'us-east-1',
      NFT_S3_ENDPOINT_URL: endpoint,
      NFT_S3_FORCE_PATH_STYLE: 'true',
      NFT_S3_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      NFT_S3_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
