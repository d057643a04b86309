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
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Readable } from 'node:stream';
import {
  NFT_STORAGE_CONFIG,
  type NftStorageConfig,
  type S3StoreConfig,
} from '../nft-storage.config';
import { mimeTypeOf } from './content-id';
import { ContentStore, type OpenedContent } from './content-store';

const PENDING = 'pending/';
/** What a bucket or CDN may tell every cache: the bytes behind a key never change. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** A pending mark's body: empty, with its length said (the SDK warns of a body of unknown length). */
const EMPTY = Buffer.alloc(0);

const absent = (error: unknown): boolean =>
  error instanceof NoSuchKey ||
  error instanceof NotFound ||
  (error as { name?: string }).name === 'NotFound' ||
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * ContentStore on an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO), shared by every
 * replica. Items are the keys `<id>`, served with immutable cache headers; a pending item also
 * has an empty `pending/<id>` whose LastModified is when it was last uploaded, so the pending
 * state needs nothing but the bucket.
 */
@Injectable()
export class S3Store extends ContentStore implements OnModuleDestroy {
  private readonly client: S3Client;
  private readonly config: S3StoreConfig;

  constructor(@Inject(NFT_STORAGE_CONFIG) { s3 }: NftStorageConfig) {
    super();
    if (!s3) throw new Error('S3Store needs NFT_STORAGE=s3 and its settings');
    this.config = s3;
    this.client = new S3Client({
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: s3.forcePathStyle,
      credentials: s3.credentials,
      // Checksums only where the API requires them: R2, MinIO and older servers refuse some.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }

  async put(id: string, bytes: Buffer, mimeType: string): Promise<boolean> {
    const stored = await this.has(id);
    if (stored && !(await this.exists(PENDING + id))) return false;
    // The mark first: a failure between the two leaves a mark the sweeper clears, never an
    // unmarked object nobody minted.
    await this.client.send(
      new PutObjectCommand({ ...this.key(PENDING + id), Body: EMPTY, ContentLength: 0 }),
    );
    if (stored) return false;
    await this.client.send(
      new PutObjectCommand({
        ...this.key(id),
        Body: bytes,
        ContentType: mimeType,
        ContentLength: bytes.length,
        CacheControl: CACHE_CONTROL,
      }),
    );
    return true;
  }

  uri(id: string, baseUrl: string): string {
    return this.config.publicUrl ? `${this.config.publicUrl}/${id}` : `${baseUrl}/nft/${id}`;
  }

  async open(id: string): Promise<OpenedContent | undefined> {
    const mimeType = mimeTypeOf(id);
    if (!mimeType) return undefined;
    try {
      const object = await this.client.send(new GetObjectCommand(this.key(id)));
      // In Node the SDK answers the HTTP response itself: read as the client reads.
      const body = object.Body as Readable;
      return { body, mimeType, size: object.ContentLength ?? 0 };
    } catch (error) {
      if (absent(error)) return undefined;
      throw error;
    }
  }

  has(id: string): Promise<boolean> {
    return mimeTypeOf(id) ? this.exists(id) : Promise.resolve(false);
  }

  async keep(id: string): Promise<boolean> {
    if (!(await this.has(id))) return false;
    await this.delete([PENDING + id]);
    return true;
  }

  async sweep(before: Date): Promise<string[]> {
    const expired = (await this.list(PENDING))
      .filter((mark) => mark.LastModified && mark.LastModified < before)
      .map((mark) => mark.Key!.slice(PENDING.length))
      .filter((id) => mimeTypeOf(id));
    const swept: string[] = [];
    for (const id of expired) {
      // Marked again since the listing (uploaded once more): it gets a new TTL.
      const mark = await this.head(PENDING + id);
      if (!mark?.LastModified || mark.LastModified >= before) continue;
      await this.delete([id, PENDING + id]);
      swept.push(id);
    }
    return swept;
  }

  async measure(): Promise<number> {
    const objects = await this.list('');
    return objects
      .filter((object) => object.Key && mimeTypeOf(object.Key))
      .reduce((total, object) => total + (object.Size ?? 0), 0);
  }

  private key(key: string): { Bucket: string; Key: string } {
    return { Bucket: this.config.bucket, Key: key };
  }

  private async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== undefined;
  }

  private async head(key: string): Promise<{ LastModified?: Date } | undefined> {
    try {
      return await this.client.send(new HeadObjectCommand(this.key(key)));
    } catch (error) {
      if (absent(error)) return undefined;
      throw error;
    }
  }

  private async delete(keys: string[]): Promise<void> {
    // One by one: DeleteObjects needs a checksum some S3-compatible servers do not accept.
    for (const key of keys) await this.client.send(new DeleteObjectCommand(this.key(key)));
  }

  private async list(prefix: string): Promise<_Object[]> {
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
}
