import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NFT_STORAGE_CONFIG, type NftStorageConfig } from '../nft-storage.config';
import { mimeTypeOf } from './content-id';
import { ContentStore, type OpenedContent } from './content-store';

const missing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * ContentStore on a local directory (NFT_STORAGE_DIR), created on the first write: one replica
 * only (see docs/operating.md). Items are `<dir>/<id>`; a pending item also has an empty
 * `<dir>/pending/<id>` whose modification time is when it was last uploaded.
 */
@Injectable()
export class LocalDirectoryStore extends ContentStore {
  private readonly dir: string;
  private readonly pendingDir: string;

  constructor(@Inject(NFT_STORAGE_CONFIG) config: NftStorageConfig) {
    super();
    this.dir = config.dir;
    this.pendingDir = join(config.dir, 'pending');
  }

  async put(id: string, bytes: Buffer, mimeType: string): Promise<boolean> {
    if (mimeTypeOf(id) !== mimeType) throw new Error(`${id} is not an id of ${mimeType}`);
    const path = join(this.dir, id);
    const marker = join(this.pendingDir, id);
    const stored = await stat(path).then(
      () => true,
      () => false,
    );
    if (stored && !(await this.isPending(id))) return false;
    // The mark first: a crash between the two leaves a mark the sweeper clears, never an
    // unmarked file nobody minted.
    await mkdir(this.pendingDir, { recursive: true });
    const now = new Date();
    await writeFile(marker, '').then(() => utimes(marker, now, now));
    if (stored) return false;
    // Written aside then renamed: a reader never sees part of a file, and a failed write
    // leaves nothing behind.
    const partial = join(this.dir, `.${id}.${randomUUID()}.partial`);
    try {
      await writeFile(partial, bytes, { flag: 'wx' });
      await rename(partial, path);
    } finally {
      await rm(partial, { force: true });
    }
    return true;
  }

  uri(id: string, baseUrl: string): string {
    return `${baseUrl}/nft/${id}`;
  }

  async open(id: string): Promise<OpenedContent | undefined> {
    const mimeType = mimeTypeOf(id);
    if (!mimeType) return undefined;
    const path = join(this.dir, id);
    try {
      const { size } = await stat(path);
      // Read in chunks as the client takes them: a slow reader holds one chunk, not the file.
      return { body: createReadStream(path), mimeType, size };
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async has(id: string): Promise<boolean> {
    if (!mimeTypeOf(id)) return false;
    return stat(join(this.dir, id)).then(
      () => true,
      (error: unknown) => (missing(error) ? false : Promise.reject(error as Error)),
    );
  }

  async keep(id: string): Promise<boolean> {
    if (!(await this.has(id))) return false;
    await rm(join(this.pendingDir, id), { force: true });
    return true;
  }

  async sweep(before: Date): Promise<string[]> {
    const names = await readdir(this.pendingDir).catch((error: unknown) =>
      missing(error) ? [] : Promise.reject(error as Error),
    );
    const swept: string[] = [];
    for (const id of names.filter((name) => mimeTypeOf(name))) {
      const marked = await stat(join(this.pendingDir, id)).catch(() => undefined);
      if (!marked || marked.mtime >= before) continue;
      await rm(join(this.dir, id), { force: true });
      await rm(join(this.pendingDir, id), { force: true });
      swept.push(id);
    }
    return swept;
  }

  async measure(): Promise<number> {
    const entries = await readdir(this.dir, { withFileTypes: true }).catch((error: unknown) =>
      missing(error) ? [] : Promise.reject(error as Error),
    );
    let total = 0;
    for (const entry of entries.filter((e) => e.isFile() && mimeTypeOf(e.name)))
      total += (await stat(join(this.dir, entry.name)).catch(() => ({ size: 0 }))).size;
    return total;
  }

  private isPending(id: string): Promise<boolean> {
    return stat(join(this.pendingDir, id)).then(
      () => true,
      () => false,
    );
  }
}
