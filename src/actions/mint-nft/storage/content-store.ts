import type { Readable } from 'node:stream';

/** A stored item opened for reading: its bytes come as a stream, never as one buffer. */
export interface OpenedContent {
  body: Readable;
  mimeType: string;
  size: number;
}

/** A user's mark on one of their pending uploads: the upload's metadata id, and when it was made. */
export interface OwnerMark {
  id: string;
  markedAt: Date;
}

/**
 * Where the mint-nft action keeps images and token metadata: each item is named by a hash of its
 * bytes (`<sha-256>.<extension>`), so the same bytes are stored once and an item never changes.
 * An item is written `pending`: kept only once its mint is confirmed (`keep`), deleted by `sweep`
 * otherwise. The pending mark lives in the store itself, so every replica sees it; so do the
 * owner marks (`<owner>/<id>`) that count each user's pending uploads (NFT_PENDING_MAX_PER_USER).
 * Two stores ship: a local directory and an S3-compatible bucket (NFT_STORAGE selects).
 */
export abstract class ContentStore {
  /**
   * Stores the bytes as pending (a no-op when they are already stored and kept; refreshes the
   * pending mark when they are pending) under `id` (see content-id.ts). True when the bytes
   * were written, false when they were there already.
   */
  abstract put(id: string, bytes: Buffer, mimeType: string): Promise<boolean>;

  /** The public URI of a stored item; `baseUrl` is this service's own, for stores it serves. */
  abstract uri(id: string, baseUrl: string): string;

  /** A stored item opened as a stream; undefined when there is none. */
  abstract open(id: string): Promise<OpenedContent | undefined>;

  /** Whether the item is stored (pending or kept). */
  abstract has(id: string): Promise<boolean>;

  /** Clears the item's pending mark: it stays for good. False when the item is not stored. */
  abstract keep(id: string): Promise<boolean>;

  /** Whether the item is stored and still pending (neither kept nor swept). */
  abstract isPending(id: string): Promise<boolean>;

  /**
   * Deletes the pending items marked before `before`, and the owner marks made before it;
   * answers the ids of the items.
   */
  abstract sweep(before: Date): Promise<string[]>;

  /** Marks `id` as a pending upload of `owner` (a lower-case address), or refreshes its mark. */
  abstract markOwner(owner: string, id: string): Promise<void>;

  /** The owner's marks, those of uploads kept or swept since included until unmarked or swept. */
  abstract ownerMarks(owner: string): Promise<OwnerMark[]>;

  /** Removes one owner mark; nothing when there is none. */
  abstract unmarkOwner(owner: string, id: string): Promise<void>;

  /** Bytes of all stored items, pending or kept, as a listing finds them now. */
  abstract measure(): Promise<number>;
}
