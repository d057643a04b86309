import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from '../../config/observability.config';
import { isoTime } from './iso-time';
import { TurnBatchedStream } from './turn-batched-stream';
import { redactUrls } from './url-redaction';

/** Where log lines go: stdout in production; tests provide their own stream. */
export const LOG_DESTINATION = Symbol('LOG_DESTINATION');

/** Headers that authenticate someone: censored wherever a logged object carries headers. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  // The kit's mark of the service's own in-process calls (src/kit/in-process-call.ts).
  'x-in-process-call',
];
/**
 * Where logged objects carry headers: requests, answers, HTTP clients' errors. Spelt out, not
 * wildcards: a `*` path makes pino visit every key of every line (40 µs a line, not 2).
 */
const HEADER_OWNERS = ['', 'req.', 'res.', 'request.', 'response.', 'config.', 'options.'];
const ERROR_HEADER_OWNERS = ['err.', 'error.', 'err.cause.'].flatMap((error) =>
  ['config.', 'request.', 'response.', 'options.'].map((owner) => error + owner),
);
export const REDACTED_PATHS = [...HEADER_OWNERS, ...ERROR_HEADER_OWNERS].flatMap((owner) =>
  SECRET_HEADERS.map((name) => `${owner}headers["${name}"]`),
);

export interface RootLoggerOptions {
  level: LogLevel;
  /** One readable line per entry (pino-pretty) instead of JSON: NODE_ENV=development. */
  pretty: boolean;
  destination?: DestinationStream;
}

/**
 * The one pino logger of the process: nestjs-pino writes Nest's `Logger` through it and binds a
 * child with the request's id while a request is served. Redaction is its configuration, not the
 * callers' habit: secret headers are censored by path, and every URL in a finished line (a
 * message, an error's text or stack, a field) is cut to scheme and host before it is written.
 */
export async function createRootLogger({
  level,
  pretty,
  destination,
}: RootLoggerOptions): Promise<Logger> {
  const options: LoggerOptions = {
    level,
    timestamp: isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    hooks: { streamWrite: redactUrls },
  };
  if (pretty) {
    const stream = await prettyStream(destination);
    if (stream) return pino(options, stream);
  }
  // Level names rather than numbers: what operators grep for.
  options.formatters = { level: (label) => ({ level: label }) };
  return pino(options, destination ?? stdoutDestination());
}

/**
 * stdout, written asynchronously: while one write is in flight, the lines that follow wait in
 * memory and go out together in the next one, so a busy service makes one write per batch, not
 * one blocking write per access line (a synchronous write took 12 % of a request's time under
 * load). A turn's lines are handed over together (TurnBatchedStream); a quiet service still writes
 * each line within its turn. pino flushes what waits, synchronously, when the process exits (exit,
 * a fatal error, SIGTERM's graceful exit); a SIGKILL loses it.
 */
function stdoutDestination(): DestinationStream {
  // One per process, as stdout is: every logger made (tests make one an app) shares it.
  stdout ??= new TurnBatchedStream(pino.destination({ dest: 1, sync: false }));
  return stdout;
}
let stdout: TurnBatchedStream | undefined;

/** Longest wait for stdout to take the last lines: a blocked pipe must not hold the exit. */
const FLUSH_WAIT_MS = 2000;

/**
 * Resolves once the lines written to stdout so far are handed to the OS (or after 2 s): a boot
 * that fails exits right after its error line, and process.exit cuts the write still in flight,
 * which lost every line of such a boot.
 */
export function flushStdout(): Promise<void> {
  const stream = stdout;
  if (!stream) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FLUSH_WAIT_MS);
    void stream.written().then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const escapeBreaks = (message: unknown): string =>
  JSON.stringify(typeof message === 'string' ? message : (JSON.stringify(message) ?? '')).slice(
    1,
    -1,
  );

/**
 * pino-pretty is a development dependency: an image without it logs JSON, and says so once.
 * Each entry is one line, its message's and its error's line breaks escaped, so text from
 * outside cannot start a line of its own. Colours only on a terminal, never in a file or a pipe.
 */
async function prettyStream(destination?: DestinationStream): Promise<DestinationStream | null> {
  try {
    const { prettyFactory } = await import('pino-pretty');
    const prettify = prettyFactory({
      singleLine: true,
      colorize: destination === undefined && process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      // Errors as fields (printed on the entry's line), not as a multi-line block.
      errorLikeObjectKeys: [],
      messageFormat: (log, messageKey) => escapeBreaks(log[messageKey]),
    });
    const out = destination ?? process.stdout;
    return { write: (line: string) => void out.write(prettify(line)) };
  } catch {
    process.stderr.write('pino-pretty is not installed: logging JSON lines\n');
    return null;
  }
}
