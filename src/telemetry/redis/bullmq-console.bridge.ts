import { Logger } from '@nestjs/common';
import { format } from 'node:util';
import { LogLimiter } from '../logging/log-limiter';

type Method = 'warn' | 'error';
type ConsoleFn = (...args: unknown[]) => void;

/** A library that writes warnings with console, and where its lines go instead. */
interface Library {
  /** A frame of the library's own code. */
  frame: RegExp;
  /** Checks run once per connection (a queue's, a worker's two): one line, not three. */
  limiter: LogLimiter;
  holders: number;
}

const LIBRARIES = {
  bullmq: { frame: /[\\/]node_modules[\\/]bullmq[\\/]/, context: 'BullMQ' },
  // ioredis warns with console.warn of a password the server does not need, and writes
  // `[ioredis] Unhandled error event` with console.error for a client no one listens to.
  ioredis: { frame: /[\\/]node_modules[\\/]ioredis[\\/]/, context: 'Redis' },
};
const held = new Map<keyof typeof LIBRARIES, Library>();

let holders = 0;
const originals = new Map<Method, ConsoleFn>();
const wrappers = new Map<Method, ConsoleFn>();

/**
 * BullMQ writes some warnings with console.warn, not through an event or a logger option: a
 * Redis whose eviction policy is not noeviction (`IMPORTANT! Eviction policy is allkeys-lru. It
 * should be "noeviction"`), a Redis older than it recommends; and a few errors with console.error.
 * ioredis does the same (routeIoredisConsole). Those would be raw lines on stderr, outside the
 * JSON log, where no log search or alert sees them.
 *
 * console is global and these libraries offer no other way in, so this is the one place the
 * service wraps it, as narrowly as it can: only while a holder needs it (each releases on
 * shutdown, the last one restores console), and only calls made directly from a held library's
 * code (the frame right above the wrapper) are taken, written through Nest's Logger under the
 * library's context; every other call reaches the console untouched.
 */
export function routeBullMqConsole(): () => void {
  return routeConsole('bullmq');
}

/** As routeBullMqConsole, for ioredis's console lines (context `Redis`): RedisStatus holds it. */
export function routeIoredisConsole(): () => void {
  return routeConsole('ioredis');
}

function routeConsole(name: keyof typeof LIBRARIES): () => void {
  const library = held.get(name) ?? {
    frame: LIBRARIES[name].frame,
    limiter: new LogLimiter(new Logger(LIBRARIES[name].context)),
    holders: 0,
  };
  held.set(name, library);
  library.holders++;
  if (holders++ === 0) {
    wrap('warn');
    wrap('error');
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    library.holders--;
    if (--holders === 0) {
      unwrap('warn');
      unwrap('error');
    }
  };
}

function wrap(method: Method): void {
  const original = console[method] as ConsoleFn;
  const wrapper: ConsoleFn = (...args) => {
    const library = holders > 0 ? calledFrom(wrapper) : undefined;
    if (library) route(library.limiter, method, args);
    else original.apply(console, args);
  };
  originals.set(method, original);
  wrappers.set(method, wrapper);
  console[method] = wrapper;
}

/** Restores console, unless something wrapped it since: then ours stays, passing calls through. */
function unwrap(method: Method): void {
  if (console[method] === wrappers.get(method)) console[method] = originals.get(method)!;
}

function route(limiter: LogLimiter, method: Method, args: unknown[]): void {
  const [first] = args;
  if (method === 'error') {
    const message = first instanceof Error ? first.message : format(...args);
    limiter.error(`error:${message}`, message, first instanceof Error ? first.stack : undefined);
  } else {
    const message = format(...args);
    limiter.warn(`warn:${message}`, message);
  }
}

/** The held library whose code called `wrapper` (one frame, so the check stays cheap). */
function calledFrom(wrapper: ConsoleFn): Library | undefined {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  Error.captureStackTrace(holder, wrapper);
  Error.stackTraceLimit = limit;
  const stack = holder.stack ?? '';
  for (const library of held.values()) {
    if (library.holders > 0 && library.frame.test(stack)) return library;
  }
  return undefined;
}
