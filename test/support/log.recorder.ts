import type { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** The method of Nest's LoggerService a line was written with. */
export type LogLevel = 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal';

/** One line a Nest Logger wrote, as a console logger would print it. */
export interface LogRecord {
  level: LogLevel;
  context?: string;
  message: string;
  /** What a console logger would print after the message: a stack for `error`, extra values. */
  extra: string[];
}

/**
 * Records every line Nest's Logger is asked to write (the application's own Logger instances
 * forward here once it is installed with `app.useLogger`), as a console logger would see it.
 */
export class LogRecorder implements LoggerService {
  /** Every line since install, oldest first. */
  readonly records: LogRecord[] = [];

  /**
   * Makes a recorder the app's logger (`app.useLogger`), so a test reads the lines Nest's Logger
   * instances write, boot and shutdown lines included.
   */
  static install(app: NestFastifyApplication): LogRecorder {
    const recorder = new LogRecorder();
    app.useLogger(recorder);
    return recorder;
  }

  log(message: unknown, ...params: unknown[]): void {
    this.record('log', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.record('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.record('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.record('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.record('verbose', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.record('fatal', message, params);
  }

  /** Forgets what was recorded so far. */
  clear(): void {
    this.records.length = 0;
  }

  /** Records at one level, or of one logger context. */
  at(level: LogLevel, context?: string): LogRecord[] {
    return this.records.filter(
      (r) => r.level === level && (context === undefined || r.context === context),
    );
  }

  /** The text a console would show, one entry per physical line. */
  lines(): string[] {
    return this.records.flatMap((r) => [r.message, ...r.extra].join('\n').split(/\r\n|\r|\n/));
  }

  /** Records whose printed text holds a stack trace. */
  withStack(): LogRecord[] {
    return this.records.filter((r) => r.extra.some((e) => /\n\s+at /.test(e)));
  }

  private record(level: LogLevel, message: unknown, params: unknown[]): void {
    // Nest's Logger appends its context as the last parameter.
    const last = params.at(-1);
    const context = typeof last === 'string' ? last : undefined;
    const extra = (context === undefined ? params : params.slice(0, -1))
      .filter((p) => p !== undefined)
      .map((p) => (typeof p === 'string' ? p : JSON.stringify(p)));
    this.records.push({ level, context, message: String(message), extra });
  }
}
