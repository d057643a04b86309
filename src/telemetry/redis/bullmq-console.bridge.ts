import { Logger } from '@nestjs/common';
import { format } from 'node:util';
import { LogLimiter } from '../logging/log-limiter';

/** A frame of BullMQ's own code. */
const BULLMQ_FRAME = /[\\/]node_modules[\\/]bullmq[\\/]/;

type Method = 'warn' | 'error';
type ConsoleFn = (...args: unknown[]) => void;

const logger = new Logger('BullMQ');
/** BullMQ checks Redis once per connection (a queue's, a worker's two): one line, not three. */
const limiter = new LogLimiter(logger);

let holders = 0;
const originals = new Map<Method, ConsoleFn>();
const wrappers = new Map<Method, ConsoleFn>();

/**
 * BullMQ writes some warnings with console.warn, not through an event or a logger option: a
 * Redis whose eviction policy is not noeviction (`IMPORTANT! Eviction policy is allkeys-lru. It
 * should be "noeviction"`), a Redis older than it recommends; and a few errors with console.error.
 * Those would be raw lines on stderr, outside the JSON log, where no log search or alert sees them.
 *
 * console is global and BullMQ offers no other way in, so this is the one place the service
 * wraps it, as narrowly as it can: only while a BullMQ queue is open (each holder releases on
 * shutdown, the last one restores console), and only calls made directly from BullMQ's code (the
 * frame right above the wrapper) are taken, written through Nest's Logger under `BullMQ`; every
 * other call reaches the console untouched.
 */
export function routeBullMqConsole(): () => void {
  if (holders++ === 0) {
    wrap('warn');
    wrap('error');
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) {
      unwrap('warn');
      unwrap('error');
    }
  };
}

function wrap(method: Method): void {
  const original = console[method] as ConsoleFn;
  const wrapper: ConsoleFn = (...args) => {
    if (holders > 0 && calledFromBullMq(wrapper)) route(method, args);
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

function route(method: Method, args: unknown[]): void {
  const [first] = args;
  if (method === 'error') {
    const message = first instanceof Error ? first.message : format(...args);
    limiter.error(`error:${message}`, message, first instanceof Error ? first.stack : undefined);
  } else {
    const message = format(...args);
    limiter.warn(`warn:${message}`, message);
  }
}

/** Whether the code that called `wrapper` is BullMQ's (one frame, so the check stays cheap). */
function calledFromBullMq(wrapper: ConsoleFn): boolean {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  Error.captureStackTrace(holder, wrapper);
  Error.stackTraceLimit = limit;
  return BULLMQ_FRAME.test(holder.stack ?? '');
}
