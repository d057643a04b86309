import {
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { Hex } from 'viem';
import { ActionException, limitLog, logText } from '../../../kit';
import { NFT_STORAGE_CONFIG, type NftStorageConfig } from '../nft-storage.config';
import { contentIdOf, idOfUri, mimeTypeOf } from './content-id';
import { ContentStore, type OpenedContent } from './content-store';
import { tokenUriOfMint } from './minted-uri';

/** Largest metadata JSON keepMinted reads (the action writes well under 2 KB). */
const METADATA_MAX_BYTES = 64 * 1024;

/**
 * The mint-nft action's use of its ContentStore: the size cap (NFT_STORAGE_MAX_BYTES, 507 past
 * it), the pending lifecycle (uploads stay pending until `keepMinted`, the sweeper deletes those
 * older than NFT_PENDING_TTL_S), and store failures logged once a minute under a stable key.
 */
@Injectable()
export class NftStorage implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('NftStorage');
  /** Bytes stored as the last measure found them, plus this replica's writes since. */
  private used?: Promise<number>;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: ContentStore,
    @Inject(NFT_STORAGE_CONFIG) private readonly config: NftStorageConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.sweepIntervalMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Stores the bytes as pending and answers their id; 507 when the store is full. */
  async put(bytes: Buffer, mimeType: string): Promise<string> {
    const id = contentIdOf(bytes, mimeType);
    const used = await this.guard('measure', () => this.usage());
    if (
      used + bytes.length > this.config.maxBytes &&
      !(await this.guard('read', () => this.store.has(id)))
    ) {
      limitLog(this.logger).warn(
        'nft-store-full',
        `NFT store full (${used} of NFT_STORAGE_MAX_BYTES=${this.config.maxBytes} bytes): uploads refused with 507`,
      );
      throw new ActionException(HttpStatus.INSUFFICIENT_STORAGE, 'NFT storage is full', {
        message: 'NFT storage is full, please try again later',
        code: 'STORAGE_FULL',
      });
    }
    const written = await this.guard('write', () => this.store.put(id, bytes, mimeType));
    if (written) this.used = Promise.resolve(used + bytes.length);
    return id;
  }

  uri(id: string, baseUrl: string): string {
    return this.store.uri(id, baseUrl);
  }

  open(id: string): Promise<OpenedContent | undefined> {
    return this.guard('read', () => this.store.open(id));
  }

  /**
   * Keeps for good the metadata a minted token's URI names and the image it names: called when
   * the mint is confirmed. `tokenUri` may also be a bare content id. False when the store has
   * no such metadata (another service's URI, or swept already).
   */
  async keepMinted(tokenUri: string): Promise<boolean> {
    const id = idOfUri(tokenUri);
    if (!id || mimeTypeOf(id) !== 'application/json') return false;
    const metadata = await this.readMetadata(id);
    if (!metadata) return false;
    const imageId = typeof metadata.image === 'string' ? idOfUri(metadata.image) : undefined;
    if (imageId) await this.guard('write', () => this.store.keep(imageId));
    return this.guard('write', () => this.store.keep(id));
  }

  /** keepMinted for the calldata of a confirmed mint-nft intent; false for other calldata. */
  keepMintCall(data: Hex): Promise<boolean> {
    const tokenUri = tokenUriOfMint(data);
    return tokenUri ? this.keepMinted(tokenUri) : Promise.resolve(false);
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
      this.logFailure('sweep', error);
      return [];
    }
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

  /** A store failure: logged under a key of the operation alone, answered as a 503. */
  private async guard<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.logFailure(operation, error);
      throw new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'NFT storage is unavailable', {
        message: 'NFT storage is unavailable, please try again later',
        code: 'STORAGE_UNAVAILABLE',
      });
    }
  }

  private logFailure(operation: string, error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    // The key names the operation, never the error's text: that may hold a random file name.
    limitLog(this.logger).error(
      `nft-store-${operation}`,
      `NFT store ${operation} failed: ${logText(text)}`,
      error instanceof Error ? error.stack : undefined,
    );
  }
}
