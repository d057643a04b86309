import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

/** One HTTP answer read off the wire. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A connection to 127.0.0.1 that records what it receives and when the server closes it. */
export class RawClient {
  /** Everything received so far, as latin1 text so any byte survives. */
  received = '';
  /** The socket, for a test that needs to end it half-way or watch its events. */
  readonly socket: Socket;
  /** Resolves with everything received once the connection is closed (reset included). */
  readonly closed: Promise<string>;

  private constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    // A refused or reset connection ends the exchange like a close does.
    this.socket.on('error', () => undefined);
    // Not events.once: it rejects on the 'error' a reset emits before 'close'.
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve(this.received)));
  }

  /**
   * Connects to 127.0.0.1:`port` and resolves once connected, so the first write is never queued
   * behind the handshake.
   */
  static async open(port: number): Promise<RawClient> {
    const client = new RawClient(port);
    await once(client.socket, 'connect');
    return client;
  }

  /** Writes raw bytes: a request exactly as the test wants it, malformed ones included. */
  write(text: string): void {
    this.socket.write(text);
  }

  /** Resolves once what was received contains `text`. */
  async waitFor(text: string): Promise<string> {
    while (!this.received.includes(text)) {
      await Promise.race([once(this.socket, 'data'), this.closed]);
      if (this.socket.destroyed && !this.received.includes(text)) {
        throw new Error(`connection closed before ${JSON.stringify(text)}: ${this.received}`);
      }
    }
    return this.received;
  }

  /** Closes the connection at once, as a client that gives up. */
  destroy(): void {
    this.socket.destroy();
  }
}

/** Writes `request` on a new connection and resolves with all received once the server closes. */
export async function exchange(port: number, request: string): Promise<string> {
  const client = await RawClient.open(port);
  client.write(request);
  return client.closed;
}

/** Reads the first answer in `raw` (after any `100 Continue`); its body by Content-Length. */
export function parseAnswer(raw: string): RawAnswer {
  const text = raw.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete answer in ${JSON.stringify(raw)}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? text.length - end - 4);
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]),
    headers,
    body: text.slice(end + 4, end + 4 + length),
  };
}
