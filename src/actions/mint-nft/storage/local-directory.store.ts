import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NFT_STORAGE_CONFIG, type NftStorageConfig } from '../nft-storage.config';
import { ContentStore, type StoredContent } from './content-store';

/** The types the store keeps, by the extension their ids end with. */
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/json': 'json',
};
const TYPES = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));
/** `<sha-256 of the bytes>.<extension>`: nothing else is ever read, so no path leaves the directory. */
const ID = /^[0-9a-f]{64}\.([a-z]{3,4})$/;

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** ContentStore on a local directory (NFT_STORAGE_DIR), created on the first write. */
@Injectable()
export class LocalDirectoryStore extends ContentStore {
  private readonly dir: string;

  constructor(@Inject(NFT_STORAGE_CONFIG) config: NftStorageConfig) {
    super();
    this.dir = config.dir;
  }

  async put(bytes: Buffer, mimeType: string): Promise<string> {
    const extension = EXTENSIONS[mimeType];
    if (!extension) throw new Error(`The NFT store does not keep ${mimeType}`);
    const id = `${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
    const path = join(this.dir, id);
    if (await exists(path)) return id;
    await mkdir(this.dir, { recursive: true });
    // Written aside then renamed: a reader never sees part of a file, and a failed write
    // leaves nothing behind.
    const partial = join(this.dir, `.${id}.${randomUUID()}.partial`);
    try {
      await writeFile(partial, bytes, { flag: 'wx' });
      await rename(partial, path);
    } finally {
      await rm(partial, { force: true });
    }
    return id;
  }

  uri(id: string, baseUrl: string): string {
    return `${baseUrl}/nft/${id}`;
  }

  async get(id: string): Promise<StoredContent | undefined> {
    const extension = ID.exec(id)?.[1];
    const mimeType = extension === undefined ? undefined : TYPES[extension];
    if (!mimeType) return undefined;
    try {
      return { bytes: await readFile(join(this.dir, id)), mimeType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
