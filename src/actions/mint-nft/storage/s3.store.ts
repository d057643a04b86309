import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  NFT_STORAGE_CONFIG,
  type NftStorageConfig,
  type S3StoreConfig,
} from '../nft-storage.config';
import { checkId, checkOwner, mimeTypeOf } from './content-id';
import { ContentStore, type OpenedContent, type OwnerMark } from './content-store';
import { S3Bucket } from './s3-bucket';

const PENDING = 'pending/';
const OWNERS = 'pending-by/';

/**
 * ContentStore on an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO), shared by every
 * replica. Items are the keys `<id>`, served with immutable cache headers; a pending item also
 * has an empty `pending/<id>` whose LastModified is when it was last uploaded, and each user's
 * pending upload an empty `pending-by/<owner>/<id>`, so the pending state and the per-user
 * counts need nothing but the bucket.
 */
@Injectable()
export class S3Store extends ContentStore implements OnModuleDestroy {
  private readonly bucket: S3Bucket;
  private readonly config: S3StoreConfig;

  constructor(@Inject(NFT_STORAGE_CONFIG) { s3 }: NftStorageConfig) {
    super();
    if (!s3) throw new Error('S3Store needs NFT_STORAGE=s3 and its settings');
    this.config = s3;
    this.bucket = new S3Bucket(s3);
  }

  onModuleDestroy(): void {
    this.bucket.destroy();
  }

  async put(id: string, bytes: Buffer, mimeType: string): Promise<boolean> {
    const stored = await this.has(id);
    if (stored && !(await this.isPending(id))) return false;
    // The mark first: a failure between the two leaves a mark the sweeper clears, never an
    // unmarked object nobody minted.
    await this.bucket.mark(PENDING + id);
    if (stored) return false;
    await this.bucket.put(id, bytes, mimeType);
    return true;
  }

  uri(id: string, baseUrl: string): string {
    return this.config.publicUrl ? `${this.config.publicUrl}/${id}` : `${baseUrl}/nft/${id}`;
  }

  async open(id: string): Promise<OpenedContent | undefined> {
    const mimeType = mimeTypeOf(id);
    if (!mimeType) return undefined;
    const object = await this.bucket.get(id);
    return object && { ...object, mimeType };
  }

  has(id: string): Promise<boolean> {
    return mimeTypeOf(id) ? this.bucket.exists(id) : Promise.resolve(false);
  }

  isPending(id: string): Promise<boolean> {
    return mimeTypeOf(id) ? this.bucket.exists(PENDING + id) : Promise.resolve(false);
  }

  async keep(id: string): Promise<boolean> {
    if (!(await this.has(id))) return false;
    await this.bucket.delete([PENDING + id]);
    return true;
  }

  async sweep(before: Date): Promise<string[]> {
    const expired = (await this.bucket.list(PENDING))
      .filter((mark) => mark.LastModified && mark.LastModified < before)
      .map((mark) => mark.Key!.slice(PENDING.length))
      .filter((id) => mimeTypeOf(id));
    const swept: string[] = [];
    for (const id of expired) {
      // Marked again since the listing (uploaded once more): it gets a new TTL.
      if (!(await this.markedBefore(PENDING + id, before))) continue;
      await this.bucket.delete([id, PENDING + id]);
      swept.push(id);
    }
    for (const mark of await this.bucket.list(OWNERS)) {
      if (!mark.Key || !mark.LastModified || mark.LastModified >= before) continue;
      if (await this.markedBefore(mark.Key, before)) await this.bucket.delete([mark.Key]);
    }
    return swept;
  }

  async markOwner(owner: string, id: string): Promise<void> {
    await this.bucket.mark(this.ownerKey(owner, id));
  }

  async ownerMarks(owner: string): Promise<OwnerMark[]> {
    const prefix = `${OWNERS}${checkOwner(owner)}/`;
    return (await this.bucket.list(prefix)).flatMap(({ Key, LastModified }) => {
      const id = Key?.slice(prefix.length);
      return id && mimeTypeOf(id) && LastModified ? [{ id, markedAt: LastModified }] : [];
    });
  }

  async unmarkOwner(owner: string, id: string): Promise<void> {
    await this.bucket.delete([this.ownerKey(owner, id)]);
  }

  async measure(): Promise<number> {
    const objects = await this.bucket.list('');
    return objects
      .filter((object) => object.Key && mimeTypeOf(object.Key))
      .reduce((total, object) => total + (object.Size ?? 0), 0);
  }

  private ownerKey(owner: string, id: string): string {
    return `${OWNERS}${checkOwner(owner)}/${checkId(id)}`;
  }

  /** Whether the mark is still there and older than `before` (not made again since a listing). */
  private async markedBefore(key: string, before: Date): Promise<boolean> {
    const mark = await this.bucket.head(key);
    return mark?.LastModified !== undefined && mark.LastModified < before;
  }
}
