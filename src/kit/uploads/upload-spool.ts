import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { limitLog } from '../../telemetry/logging/log-limiter';
import { logText } from '../../telemetry/logging/log-text';
import { storageUnavailable } from './upload-errors';

/** Where every request's folder is made: one place to look for (and clean) leftovers. */
export const SPOOL_PREFIX = 'dynamic-action-upload-';

const logger = new Logger('UploadSpool');

/**
 * Folders of this process's requests that are still in use. Named before they are made, so a
 * boot's sweep (spool-sweep.ts), which may run in this process beside served apps (tests do),
 * never takes one of them for a leftover.
 */
export const liveFolders = new Set<string>();

/**
 * A folder's name carries the pid of the process that made it: a sweep keeps the folders of
 * processes still running (two services, or two test workers, may share one directory).
 */
const folderName = (): string => `${SPOOL_PREFIX}${process.pid}-${randomBytes(8).toString('hex')}`;

/**
 * A file system refusing the spool (read-only, full, missing, not permitted) is the service's
 * failure, not the client's: logged at error once a minute per reason (the key never holds a
 * random file name), and answered 503 STORAGE_UNAVAILABLE. Anything else is passed on.
 */
export function spoolFailure(error: unknown, dir: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return error;
  const text = error instanceof Error ? error.message : String(error);
  limitLog(logger).error(
    `upload-spool-${code}`,
    `Upload spool ${logText(dir)} cannot be written (${code}): files over 64 KiB are refused ` +
      `with 503 until it can (UPLOAD_SPOOL_DIR). ${logText(text)}`,
  );
  return storageUnavailable();
}

const removing = new Set<Promise<void>>();

/**
 * Settles once every folder removal started so far has: a closing server awaits it, so a request
 * cut short by the shutdown does not leave its folder to the next boot's sweep.
 */
export async function spoolRemovalsSettled(): Promise<void> {
  await Promise.allSettled([...removing]);
}

/** One spooled file, written as its bytes arrive. */
export interface SpoolFile {
  readonly path: string;
  write(bytes: Buffer): Promise<void>;
  close(): Promise<void>;
}

/**
 * The folder of one request's large files under UPLOAD_SPOOL_DIR: made on the first file that
 * needs it, removed with everything in it once the request's answer is sent or its client is gone.
 */
export class UploadSpool {
  private dir?: Promise<string>;
  private name?: string;
  private count = 0;
  private removed = false;

  /** A new file in the request's folder under `root`, open for writing (503 when it cannot be). */
  async open(root: string): Promise<SpoolFile> {
    let handle: FileHandle;
    let path: string;
    try {
      this.assertKept();
      this.dir ??= this.make(root);
      path = join(await this.dir, String(this.count++));
      // Removed meanwhile: the client is gone, and a missing folder is no storage failure.
      this.assertKept();
      handle = await open(path, 'wx', 0o600);
    } catch (error) {
      throw spoolFailure(error, root);
    }
    return {
      path,
      write: async (bytes) => {
        try {
          await handle.write(bytes);
        } catch (error) {
          throw spoolFailure(error, root);
        }
      },
      close: () => handle.close(),
    };
  }

  /** Removes the folder and its files; files opened later are refused. */
  remove(): Promise<void> {
    this.removed = true;
    const removal = this.removeFolder();
    removing.add(removal);
    const forget = (): void => void removing.delete(removal);
    removal.then(forget, forget);
    return removal;
  }

  private async removeFolder(): Promise<void> {
    const dir = await this.dir?.catch(() => undefined);
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    if (this.name !== undefined) liveFolders.delete(this.name);
  }

  private assertKept(): void {
    if (this.removed) throw new Error('The upload spool was removed');
  }

  private async make(root: string): Promise<string> {
    const name = folderName();
    this.name = name;
    liveFolders.add(name);
    const dir = join(root, name);
    await mkdir(dir, { mode: 0o700 });
    return dir;
  }
}
