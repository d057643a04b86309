import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

/**
 * Nest's logger for the boot, before setupApp installs nestjs-pino's: it writes through a pino
 * root logger made like the application's (same level, redaction, stdout, and pretty in
 * development), so NestFactory's own lines and a boot that fails early are lines of the one JSON
 * stream, `{level, time, pid, hostname, context, msg}`, never Nest's console format.
 * Nest calls it as `log(message, context)` and `error(message, stack, context)`.
 */
export class BootLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    // Nest puts the context last; an error's stack, when it passes one, before it.
    const last = params.at(-1);
    const fields: Record<string, unknown> = typeof last === 'string' ? { context: last } : {};
    if (message instanceof Error) {
      this.root[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'string') {
      // As nestjs-pino's Logger writes Nest's `error(message, stack, context)`: an `err` field.
      const stack = params.length > 1 ? params[0] : undefined;
      if (typeof stack === 'string' && stack) {
        fields.err = Object.assign(new Error(message), { stack });
      }
      this.root[level](fields, message);
    } else {
      this.root[level]({ ...fields, value: message }, String(message));
    }
  }
}
