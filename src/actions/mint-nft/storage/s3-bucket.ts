import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  type _Object,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { S3StoreConfig } from '../nft-storage.config';

/** What a bucket or CDN may tell every cache: the bytes behind a key never change. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** A mark's body: empty, with its length said (the SDK warns of a body of unknown length). */
const EMPTY = Buffer.alloc(0);

const absent = (error: unknown): boolean =>
  error instanceof NoSuchKey ||
  error instanceof NotFound ||
  (error as { name?: string }).name === 'NotFound' ||
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * The few calls S3Store makes on its bucket, with an absent key answered as undefined rather
 * than thrown: the S3 protocol's part of the store, apart from what it means for NFT files.
 */
export class S3Bucket {
  private readonly client: S3Client;

  constructor(private readonly config: S3StoreConfig) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // Checksums only where the API requires them: R2, MinIO and older servers refuse some.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  destroy(): void {
    this.client.destroy();
  }

  /** An empty object: a mark whose LastModified is when it was last put. */
  async mark(key: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ ...this.key(key), Body: EMPTY, ContentLength: 0 }),
    );
  }

  async put(key: string, bytes: Buffer, mimeType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        ...this.key(key),
        Body: bytes,
        ContentType: mimeType,
        ContentLength: bytes.length,
        CacheControl: CACHE_CONTROL,
      }),
    );
  }

  async get(key: string): Promise<{ body: Readable; size: number } | undefined> {
    try {
      const object = await this.client.send(new GetObjectCommand(this.key(key)));
      // In Node the SDK answers the HTTP response itself: read as the client reads.
      return { body: object.Body as Readable, size: object.ContentLength ?? 0 };
    } catch (error) {
      if (absent(error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== undefined;
  }

  async head(key: string): Promise<{ LastModified?: Date } | undefined> {
    try {
      return await this.client.send(new HeadObjectCommand(this.key(key)));
    } catch (error) {
      if (absent(error)) return undefined;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    // One by one: DeleteObjects needs a checksum some S3-compatible servers do not accept.
    for (const key of keys) await this.client.send(new DeleteObjectCommand(this.key(key)));
  }

  /** Every object under `prefix` (the whole bucket for ''), page after page. */
  async list(prefix: string): Promise<_Object[]> {
    const objects: _Object[] = [];
    let token: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: prefix || undefined,
          ContinuationToken: token,
        }),
      );
      objects.push(...(page.Contents ?? []));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return objects;
  }

  private key(key: string): { Bucket: string; Key: string } {
    return { Bucket: this.config.bucket, Key: key };
  }
}
