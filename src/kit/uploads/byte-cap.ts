import type { FastifyRequest } from 'fastify';
import type { ActionException } from '../../contract/action.exception';
import { uploadsBusy, type UploadTicket } from './upload-admission';
import { tooLarge } from './upload-errors';

/**
 * Counts the request's bytes as they arrive and, past the cap (413) or past what the in-flight
 * bound can still reserve for it (503), stops reading at once: whatever waits on the body is
 * released with the refusal instead of reading the rest.
 */
export class ByteCap {
  private received = 0;
  private fail: (error: ActionException) => void = () => undefined;
  readonly crossed = new Promise<never>((_, reject) => (this.fail = reject));

  constructor(
    private readonly req: FastifyRequest,
    private readonly maxBytes: number,
    private readonly ticket: UploadTicket,
  ) {
    this.crossed.catch(() => undefined); // settled through `race` only
    req.raw.on('data', this.count);
  }

  race<T>(pending: Promise<T>): Promise<T> {
    return Promise.race([pending, this.crossed]);
  }

  private readonly count = (chunk: Buffer): void => {
    this.received += chunk.length;
    if (this.received > this.maxBytes) {
      this.stop();
      this.fail(tooLarge(`Upload larger than ${this.maxBytes} bytes`));
    } else if (!this.ticket.cover(this.received)) {
      this.stop();
      this.fail(uploadsBusy());
    }
  };

  /** No more bytes are read: the answer goes out with `Connection: close` (see multipart.setup.ts). */
  stop(): void {
    this.req.raw.off('data', this.count);
    if (this.req.raw.complete) return;
    this.req.raw.unpipe();
    this.req.raw.pause();
  }
}
