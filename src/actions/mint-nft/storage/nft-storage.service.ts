import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { Hex } from 'viem';
import { ActionException, limitLog } from '../../../kit';
import { NFT_STORAGE_CONFIG, type NftStorageConfig } from '../nft-storage.config';
import { contentIdOf, idOfUri, mimeTypeOf } from './content-id';
import { ContentStore, type OpenedContent } from './content-store';
import { tokenUriOfMint } from './minted-uri';
import { PendingPerUser } from './pending-per-user';
import { StoreGuard } from './store-guard';

/** One file of an upload, named by its bytes before anything is written. */
export interface NftFile {
  id: string;
  bytes: Buffer;
  mimeType: string;
}

/** What one mint stores: the image, and the metadata naming it (its id is the upload's key). */
export interface NftUpload {
  /** The acting user's address, whose pending uploads NFT_PENDING_MAX_PER_USER counts. */
  owner: string;
  image: NftFile;
  metadata: NftFile;
}

/** Largest metadata JSON keepMinted reads (the action writes well under 2 KB). */
const METADATA_MAX_BYTES = 64 * 1024;

/**
 * The mint-nft action's use of its ContentStore: the size cap (NFT_STORAGE_MAX_BYTES, 507 past
 * it), the per-user cap on pending uploads (NFT_PENDING_MAX_PER_USER, 429), the pending
 * lifecycle (uploads stay pending until `keepMinted`, the sweeper deletes those older than
 * NFT_PENDING_TTL_S), and store failures logged once a minute under a stable key.
 */
@Injectable()
export class NftStorage implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('NftStorage');
  /** Bytes stored as the last measure found them, plus this replica's writes since. */
  private used?: Promise<number>;
  private timer?: NodeJS.Timeout;
  private readonly guard = new StoreGuard(this.logger);
  private readonly perUser: PendingPerUser;

  constructor(
    private readonly store: ContentStore,
    @Inject(NFT_STORAGE_CONFIG) private readonly config: NftStorageConfig,
  ) {
    this.perUser = new PendingPerUser(store, config, this.guard);
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.sweepIntervalMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** A file of an upload, named (content-addressed) without writing anything. */
  file(bytes: Buffer, mimeType: string): NftFile {
    return { id: contentIdOf(bytes, mimeType), bytes, mimeType };
  }

  /**
   * Whether the upload may be stored, writing nothing: 429 past the user's pending uploads, 507
   * past the store's size. Asked before the mint is simulated, so a refused user costs no RPC.
   */
  async admit({ owner, image, metadata }: NftUpload): Promise<void> {
    await this.perUser.admit(ownerOf(owner), metadata.id);
    await this.room(image.id, image.bytes.length + metadata.bytes.length);
  }

  /**
   * Stores the upload as pending, the owner's mark first (so a failure half-way never leaves
   * files uncounted); called once the mint passed its simulation. Throws (429, 507, 503)
   * rather than answer a mint naming a file that is not stored.
   */
  async save({ owner, image, metadata }: NftUpload): Promise<void> {
    await this.perUser.claim(ownerOf(owner), metadata.id);
    await this.put(image.bytes, image.mimeType);
    await this.put(metadata.bytes, metadata.mimeType);
  }

  /** Stores the bytes as pending and answers their id; 507 when the store is full. */
  async put(bytes: Buffer, mimeType: string): Promise<string> {
    const id = contentIdOf(bytes, mimeType);
    const used = await this.room(id, bytes.length);
    const written = await this.guard.run('write', () => this.store.put(id, bytes, mimeType));
    if (written) this.used = Promise.resolve(used + bytes.length);
    return id;
  }

  uri(id: string, baseUrl: string): string {
    return this.store.uri(id, baseUrl);
  }

  open(id: string): Promise<OpenedContent | undefined> {
    return this.guard.run('read', () => this.store.open(id));
  }

  /**
   * Keeps for good the metadata a minted token's URI names and the image it names: called when
   * the mint is confirmed. `tokenUri` may also be a bare content id; `owner`, the user who
   * uploaded it, stops counting it as pending. False when the store has no such metadata
   * (another service's URI, or swept already).
   */
  async keepMinted(tokenUri: string, owner?: string): Promise<boolean> {
    const id = idOfUri(tokenUri);
    if (!id || mimeTypeOf(id) !== 'application/json') return false;
    const metadata = await this.readMetadata(id);
    if (!metadata) return false;
    const imageId = typeof metadata.image === 'string' ? idOfUri(metadata.image) : undefined;
    if (imageId) await this.guard.run('write', () => this.store.keep(imageId));
    const kept = await this.guard.run('write', () => this.store.keep(id));
    if (owner) await this.perUser.release(ownerOf(owner), id);
    return kept;
  }

  /** keepMinted for the calldata of a confirmed mint-nft intent; false for other calldata. */
  keepMintCall(data: Hex, owner?: string): Promise<boolean> {
    const tokenUri = tokenUriOfMint(data);
    return tokenUri ? this.keepMinted(tokenUri, owner) : Promise.resolve(false);
  }

  /** Deletes expired pending uploads and measures the store again; answers what it deleted. */
  async sweep(now = Date.now()): Promise<string[]> {
    try {
      const swept = await this.store.sweep(new Date(now - this.config.pendingTtlMs));
      if (swept.length > 0) this.logger.log(`Deleted ${swept.length} unminted NFT upload(s)`);
      this.used = this.store.measure();
      await this.used;
      return swept;
    } catch (error) {
      this.used = undefined;
      this.guard.logFailure('sweep', error);
      return [];
    }
  }

  /** Answers the bytes stored; throws 507 when `size` more would pass the cap and `id` is new. */
  private async room(id: string, size: number): Promise<number> {
    const used = await this.guard.run('measure', () => this.usage());
    if (
      used + size <= this.config.maxBytes ||
      (await this.guard.run('read', () => this.store.has(id)))
    )
      return used;
    limitLog(this.logger).warn(
      'nft-store-full',
      `NFT store full (${used} of NFT_STORAGE_MAX_BYTES=${this.config.maxBytes} bytes): uploads refused with 507`,
    );
    throw new ActionException(HttpStatus.INSUFFICIENT_STORAGE, 'NFT storage is full', {
      message: 'NFT storage is full, please try again later',
      code: 'STORAGE_FULL',
    });
  }

  private usage(): Promise<number> {
    this.used ??= this.store.measure();
    return this.used.catch((error: unknown) => {
      this.used = undefined;
      throw error;
    });
  }

  private async readMetadata(id: string): Promise<{ image?: unknown } | undefined> {
    const opened = await this.open(id);
    if (!opened) return undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of opened.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > METADATA_MAX_BYTES) {
        opened.body.destroy();
        return undefined;
      }
      chunks.push(chunk);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { image?: unknown };
    } catch {
      return undefined;
    }
  }
}

/** Owners are counted by lower-case address: one user, however the address is spelled. */
function ownerOf(address: string): string {
  return address.toLowerCase();
}
