import { Logger } from '@nestjs/common';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { logText } from '../../telemetry/logging/log-text';
import { liveFolders, SPOOL_PREFIX, spoolFailure, UploadSpool } from './upload-spool';

const logger = new Logger('UploadSpool');

/** `dynamic-action-upload-<pid>-<random>`; older releases named folders without the pid. */
const OWNER = new RegExp(`^${SPOOL_PREFIX}(\\d+)-`);

/** Whether a process of this pid runs now (EPERM: it does, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a spool folder was left by a process that ended without removing it (killed, or cut
 * short by a shutdown). A container restarted in place gets the pid its previous run had, so a
 * folder of this pid is a leftover unless one of this process's requests holds it.
 */
function leftover(name: string): boolean {
  if (!name.startsWith(SPOOL_PREFIX)) return false;
  const owner = OWNER.exec(name);
  if (!owner) return true;
  const pid = Number(owner[1]);
  return pid === process.pid ? !liveFolders.has(name) : !running(pid);
}

/**
 * Removes the leftover folders in `dir`; returns how many went. One that cannot be removed (another
 * user's, in a shared /tmp) is left: the spool itself may still be writable, which the probe tells.
 */
export async function sweepSpool(dir: string): Promise<number> {
  const names = (await readdir(dir)).filter(leftover);
  const removals = await Promise.allSettled(
    names.map((name) => rm(join(dir, name), { recursive: true, force: true })),
  );
  return removals.filter(({ status }) => status === 'fulfilled').length;
}

/**
 * Run at boot: removes what earlier runs left in the spool (an emptyDir outlives a container's
 * restart), then writes a file there, so a spool that cannot be written is logged at error now
 * rather than at the first large upload. Neither stops the boot: only large uploads need it.
 */
export async function prepareSpool(dir: string): Promise<void> {
  try {
    const removed = await sweepSpool(dir);
    if (removed > 0)
      logger.log(`Removed ${removed} upload folder(s) an earlier run left in ${logText(dir)}`);
  } catch (error) {
    spoolFailure(error, dir);
    return;
  }
  const probe = new UploadSpool();
  try {
    await (await probe.open(dir)).close();
  } catch {
    // Logged by UploadSpool, once per reason.
  } finally {
    await probe.remove().catch(() => undefined);
  }
}
