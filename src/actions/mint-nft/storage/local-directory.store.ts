import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NFT_STORAGE_CONFIG, type NftStorageConfig } from '../nft-storage.config';
import { checkId, checkOwner, mimeTypeOf } from './content-id';
import { ContentStore, type OpenedContent, type OwnerMark } from './content-store';

const missing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * ContentStore on a local directory (NFT_STORAGE_DIR), created on the first write: one replica
 * only (see docs/operating.md). Items are `<dir>/<id>`; a pending item also has an empty
 * `<dir>/pending/<id>` whose modification time is when it was last uploaded, and each user's
 * pending uploads an empty `<dir>/pending-by/<owner>/<id>`.
 */
@Injectable()
export class LocalDirectoryStore extends ContentStore {
  private readonly dir: string;
  private readonly pendingDir: string;
  private readonly ownersDir: string;

  constructor(@Inject(NFT_STORAGE_CONFIG) config: NftStorageConfig) {
    super();
    this.dir = config.dir;
    this.pendingDir = join(config.dir, 'pending');
    this.ownersDir = join(config.dir, 'pending-by');
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
    await touch(this.pendingDir, marker);
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
    const names = await listNames(this.pendingDir);
    const swept: string[] = [];
    for (const id of names.filter((name) => mimeTypeOf(name))) {
      const marked = await stat(join(this.pendingDir, id)).catch(() => undefined);
      if (!marked || marked.mtime >= before) continue;
      await rm(join(this.dir, id), { force: true });
      await rm(join(this.pendingDir, id), { force: true });
      swept.push(id);
    }
    await this.sweepOwners(before);
    return swept;
  }

  async markOwner(owner: string, id: string): Promise<void> {
    const dir = join(this.ownersDir, checkOwner(owner));
    await touch(dir, join(dir, checkId(id))).catch(async (error: unknown) => {
      // The sweeper removed the owner's emptied directory in between: once more.
      if (!missing(error)) throw error;
      await touch(dir, join(dir, id));
    });
  }

  async ownerMarks(owner: string): Promise<OwnerMark[]> {
    const dir = join(this.ownersDir, checkOwner(owner));
    const marks: OwnerMark[] = [];
    for (const id of (await listNames(dir)).filter((name) => mimeTypeOf(name))) {
      const marked = await stat(join(dir, id)).catch(() => undefined);
      if (marked) marks.push({ id, markedAt: marked.mtime });
    }
    return marks;
  }

  async unmarkOwner(owner: string, id: string): Promise<void> {
    await rm(join(this.ownersDir, checkOwner(owner), checkId(id)), { force: true });
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

  async isPending(id: string): Promise<boolean> {
    if (!mimeTypeOf(id)) return false;
    return stat(join(this.pendingDir, id)).then(
      () => true,
      () => false,
    );
  }

  /** Owner marks made before `before` go, and so do the directories they leave empty. */
  private async sweepOwners(before: Date): Promise<void> {
    for (const owner of await listNames(this.ownersDir)) {
      const dir = join(this.ownersDir, owner);
      for (const id of await listNames(dir)) {
        const marked = await stat(join(dir, id)).catch(() => undefined);
        if (marked && marked.mtime < before) await rm(join(dir, id), { force: true });
      }
      // Fails, and stays, when a mark was made meanwhile: rmdir removes only an empty directory.
      await rmdir(dir).catch(() => undefined);
    }
  }
}

/** Creates or refreshes an empty mark file, its directory first. */
async function touch(dir: string, path: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const now = new Date();
  await writeFile(path, '');
  await utimes(path, now, now);
}

/** The names in a directory; none when it does not exist (yet). */
function listNames(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: unknown) =>
    missing(error) ? [] : Promise.reject(error as Error),
  );
}
