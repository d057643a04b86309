import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { UPLOAD_CONFIG, type UploadConfig } from '../../config/upload.config';
import { ActionException } from '../../contract/action.exception';

/** One admitted upload's share of the bounds, given back once (its answer sent or its client gone). */
export interface UploadTicket {
  /** Reserves up to `received` bytes in all; false when the in-flight bound has no room left. */
  cover(received: number): boolean;
  release(): void;
}

export const uploadsBusy = (): ActionException =>
  new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Too many uploads in flight', {
    message: 'The service is receiving too many uploads, please try again in a moment',
    code: 'UPLOADS_BUSY',
  });

/**
 * The bounds every upload shares, whatever its action: the bytes of all uploads being received
 * together (UPLOAD_MAX_INFLIGHT_BYTES; a declared Content-Length is reserved whole on admission,
 * a streamed body as its bytes arrive) and the uploads one client IP runs at once
 * (UPLOAD_MAX_PER_CLIENT). Bytes stay reserved until the request's answer is sent, so whatever an
 * upload holds (fields, files' first bytes, a handler reading a file) is within the bound.
 */
@Injectable()
export class UploadAdmission {
  private reserved = 0;
  private readonly clients = new Map<string, number>();

  constructor(@Inject(UPLOAD_CONFIG) private readonly config: UploadConfig) {}

  /** Bytes reserved by the uploads running now. */
  get inflightBytes(): number {
    return this.reserved;
  }

  /** Uploads running now for `client`. */
  running(client: string): number {
    return this.clients.get(client) ?? 0;
  }

  /** Admits one upload from `client` declaring `declared` bytes (undefined when streamed), or refuses it: 429, 503. */
  admit(client: string, declared: number | undefined): UploadTicket {
    const running = this.running(client);
    if (running >= this.config.maxPerClient) {
      throw new ActionException(HttpStatus.TOO_MANY_REQUESTS, 'Too many uploads at once', {
        message: `At most ${this.config.maxPerClient} uploads at once: wait for one to finish`,
        code: 'TOO_MANY_UPLOADS',
      });
    }
    const initial = declared ?? 0;
    if (!this.fits(Math.max(initial, 1))) throw uploadsBusy();
    this.reserved += initial;
    this.clients.set(client, running + 1);
    let held = initial;
    let released = false;
    return {
      cover: (received) => {
        if (released) return false;
        if (received <= held) return true;
        if (!this.fits(received - held)) return false;
        this.reserved += received - held;
        held = received;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.reserved -= held;
        const left = this.running(client) - 1;
        if (left > 0) this.clients.set(client, left);
        else this.clients.delete(client);
      },
    };
  }

  private fits(bytes: number): boolean {
    return this.reserved + bytes <= this.config.maxInflightBytes;
  }
}
