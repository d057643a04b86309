import { Injectable } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The header that marks a request the service makes to its own route (never sent out). */
export const IN_PROCESS_HEADER = 'x-in-process-call';

/**
 * Requests the service makes to its own routes, in-process (src/blinks runs each blink's action
 * through the action's route): they carry no browser's Origin, so the origin checks let them
 * through; every other step (rate limits, validation, the handler) applies as to any request.
 * They are told apart by a header holding a value drawn at boot, which no client can know.
 */
@Injectable()
export class InProcessCalls {
  private readonly token = randomBytes(32).toString('base64url');

  /** What an in-process request adds to its headers. */
  headers(): Record<string, string> {
    return { [IN_PROCESS_HEADER]: this.token };
  }

  is(req: { headers: IncomingHttpHeaders }): boolean {
    const sent = req.headers[IN_PROCESS_HEADER];
    return (
      typeof sent === 'string' &&
      sent.length === this.token.length &&
      timingSafeEqual(Buffer.from(sent), Buffer.from(this.token))
    );
  }
}
