export interface StoredContent {
  bytes: Buffer;
  mimeType: string;
}

/**
 * Where the mint-nft action keeps images and token metadata: each item is named by a hash of its
 * bytes, so the same bytes are stored once and an item never changes. The default writes to a
 * local directory served read-only at `GET /nft/<id>`; a team swaps in IPFS or S3 by providing
 * another ContentStore in MintNftModule, the action itself unchanged.
 */
export abstract class ContentStore {
  /** Stores the bytes (a no-op when they are already stored) and answers their id. */
  abstract put(bytes: Buffer, mimeType: string): Promise<string>;

  /** The public URI of a stored item; `baseUrl` is this service's own, for stores it serves. */
  abstract uri(id: string, baseUrl: string): string;

  /** A stored item, for stores this service serves; undefined when there is none. */
  abstract get(id: string): Promise<StoredContent | undefined>;
}
