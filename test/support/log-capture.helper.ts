import type { DestinationStream } from 'pino';

/** A JSON log line as pino writes it (level names, see src/telemetry/logging/root-logger.ts). */
export interface LogLine {
  level: string;
  time: string;
  msg?: string;
  reqId?: string;
  context?: string;
  [field: string]: unknown;
}

/** Lines kept at most: a fuzz suite writes tens of thousands. */
const MAX_LINES = 20_000;

/**
 * The destination of every test app's pino logger (test/app.factory.ts): the lines a production
 * process would write to stdout, kept as written. One per test file, since nestjs-pino keeps the
 * first logger it sees for lines written outside a request.
 */
export class LogCapture implements DestinationStream {
  private readonly written: string[] = [];

  /**
   * Keeps one line as pino wrote it; the oldest half is dropped past 20,000 lines, so a long
   * suite's memory stays bounded.
   */
  write(line: string): void {
    // The older half goes at once, so a long suite does not shift the whole array every line.
    if (this.written.length >= MAX_LINES) this.written.splice(0, MAX_LINES / 2);
    this.written.push(line);
  }

  /** Every line as written, one string per line (each ends with a newline). */
  raw(): string[] {
    return [...this.written];
  }

  /** Every line parsed; a line that is not one JSON object fails the test. */
  lines(): LogLine[] {
    return this.written.map((line) => {
      if (!line.endsWith('\n') || line.slice(0, -1).includes('\n')) {
        throw new Error(`not one line: ${JSON.stringify(line)}`);
      }
      return JSON.parse(line) as LogLine;
    });
  }

  /** Lines of one request. */
  ofRequest(reqId: string): LogLine[] {
    return this.lines().filter((line) => line.reqId === reqId);
  }

  /** The access line of one request. */
  accessLine(reqId: string): LogLine | undefined {
    return this.ofRequest(reqId).find((line) => line.status !== undefined);
  }

  /** Forgets the lines so far, so a test reads only the lines its own requests wrote. */
  clear(): void {
    this.written.length = 0;
  }
}

/**
 * The LogCapture every test app in this test file writes to (createTestApp installs it): read a
 * request's lines with `testLogs.ofRequest(reqId)`.
 */
export const testLogs = new LogCapture();
