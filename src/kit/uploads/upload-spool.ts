import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where every request's directory is made: one place to look for (and clean) leftovers. */
export const SPOOL_PREFIX = 'dynamic-action-upload-';

/**
 * The temporary directory of one request's large files: made on the first file that needs it,
 * removed with everything in it once the request's answer is sent or its client is gone.
 */
export class UploadSpool {
  private dir?: Promise<string>;
  private count = 0;
  private removed = false;

  /** A new file's path in the request's directory. */
  async path(): Promise<string> {
    if (this.removed) throw new Error('The upload spool was removed');
    this.dir ??= mkdtemp(join(tmpdir(), SPOOL_PREFIX));
    return join(await this.dir, String(this.count++));
  }

  /** Removes the directory and its files; files opened later are refused. */
  async remove(): Promise<void> {
    this.removed = true;
    const dir = await this.dir?.catch(() => undefined);
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}
