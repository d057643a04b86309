import { connect, type Socket } from 'node:net';

/** A form field: text, or a file with its bytes, file name and optional content type. */
export type FormValue = string | { bytes: Buffer; filename: string; type?: string };

/** A multipart/form-data body built by the platform's own machinery (undici's FormData). */
export async function formBody(
  entries: readonly (readonly [string, FormValue])[],
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of entries) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value.bytes], { type: value.type ?? '' }), value.filename);
  }
  const response = new Response(form);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') as string,
  };
}

/**
 * The server's answer as RawUpload read it off the socket: status, head as text, and the body of
 * `content-length` bytes.
 */
export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/**
 * A raw HTTP/1.1 client for what inject cannot show: it writes the head and the first part of a
 * body, and answers as soon as the server does, with whatever of the body it has not yet sent.
 */
export class RawUpload {
  private readonly socket: Socket;
  private received = '';
  /**
   * Resolves with the server's answer as soon as it has arrived, even while the upload is still
   * being written: how a test sees an early refusal.
   */
  readonly answered: Promise<RawAnswer>;
  /**
   * Resolves when the socket closes, whoever closed it: how a test sees the server hang up
   * mid-upload.
   */
  readonly closed: Promise<void>;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('error', () => undefined); // the server may close while the client writes
    this.answered = new Promise((resolve) => {
      this.socket.on('data', (data) => {
        this.received += data.toString('latin1');
        const end = this.received.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(this.received)?.[1];
        if (end < 0 || length === undefined || this.received.length < end + 4 + Number(length))
          return;
        resolve({
          status: Number(this.received.slice(9, 12)),
          head: this.received.slice(0, end),
          body: this.received.slice(end + 4, end + 4 + Number(length)),
        });
      });
    });
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
  }

  /**
   * Writes more of the request (head, then body parts, at the test's pace); rejects when the server
   * has closed the socket.
   */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.socket.write(data, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Closes the socket at once, as a client that gives up mid-upload. */
  destroy(): void {
    this.socket.destroy();
  }
}

/**
 * A POST's request head for RawUpload, Host included; add `content-type` and either
 * `content-length` or `transfer-encoding: chunked`.
 */
export function requestHead(path: string, headers: Record<string, string>): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** One chunk of a chunked transfer encoding. */
export const chunked = (data: Buffer): Buffer =>
  Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
