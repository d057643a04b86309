import { readFileSync } from 'node:fs';

/** Out of file descriptors: the process's own limit (EMFILE) or the system's table (ENFILE). */
const FD_CODES = new Set(['EMFILE', 'ENFILE']);

/**
 * The soft limit on open files (`ulimit -n`) from Linux's /proc/self/limits; undefined where it
 * cannot be read (another platform). Node exposes no call for it, and the soft limit is the one
 * that refuses a socket.
 */
export function openFileLimit(
  read: () => string = () => readFileSync('/proc/self/limits', 'utf8'),
): string | undefined {
  try {
    const line = read()
      .split('\n')
      .find((row) => row.startsWith('Max open files'));
    return line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  } catch {
    return undefined;
  }
}

/**
 * Read as the module loads, at boot: once the descriptors have run out, reading the file fails too
 * (EMFILE), which would leave the message without the figure it exists to give.
 */
const LIMIT_AT_BOOT = openFileLimit();

/** Whether the error is a socket or file refused for want of file descriptors. */
export function isFdExhaustion(error: unknown): boolean {
  return FD_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/**
 * The boot's message for an error of fd exhaustion, naming the limit to raise; undefined for any
 * other error. Without it an operator reads only `listen EMFILE`, and not which limit, nor that
 * ACCEPT_SOCKETS spends one descriptor a socket.
 */
export function fdLimitMessage(error: unknown, limit = LIMIT_AT_BOOT): string | undefined {
  if (!isFdExhaustion(error)) return undefined;
  const { code, message } = error as NodeJS.ErrnoException;
  const ulimit = `ulimit -n${limit === undefined ? '' : ` is ${limit}`}`;
  if (code === 'ENFILE')
    return `${message}: the system's file table is full (fs.file-max; ${ulimit})`;
  return (
    `${message}: out of file descriptors, the open-file limit (${ulimit}) is reached: raise it, ` +
    'or lower ACCEPT_SOCKETS (each listening socket takes one)'
  );
}
