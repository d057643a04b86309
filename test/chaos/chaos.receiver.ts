import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../src/kit';

/** What the receiver got, per delivery id: every request, and the ones it accepted (2xx). */
export interface ReceivedCounts {
  /** Requests received, retries and deliveries made again included. */
  requests: number;
  /** Requests refused on purpose (500). */
  failed: number;
  /** Requests whose signature or body did not verify (answered 400). */
  unverified: number;
  /** Times each delivery id was accepted (answered 200). */
  accepted: Map<string, number>;
}

/**
 * The webhook receiver of the chaos run, on a port of its own (listen(0), then kept): it can be
 * taken down (connections refused, as a receiver mid-deploy) and brought up on the same port, and
 * answers 500 to a share of the requests at random. Every request is verified as a team's service
 * verifies it (verifyWebhook of src/kit), and counted by its delivery id, the receiver's
 * idempotency key.
 */
export class ChaosReceiver {
  readonly counts: ReceivedCounts = { requests: 0, failed: 0, unverified: 0, accepted: new Map() };
  /** The share of requests answered 500 (0 to 1). */
  failureRate = 0;
  private server?: Server;
  private readonly events = new EventEmitter();

  private constructor(
    private port: number,
    private readonly secret: string,
  ) {}

  static async start(secret: string): Promise<ChaosReceiver> {
    const receiver = new ChaosReceiver(0, secret);
    await receiver.up();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Listens again on its port (the first time: a free one). */
  async up(): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and drops every connection: deliveries fail to connect until `up`. */
  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.close();
    server.closeAllConnections();
    await once(server, 'close');
  }

  /** Resolves once the condition holds, checked after each request, or rejects at the deadline. */
  async until(condition: () => boolean, deadline: number, what: string): Promise<void> {
    while (!condition()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Still not: ${what}`);
      await once(this.events, 'request', { signal: AbortSignal.timeout(left) }).catch(() => []);
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.counts.requests += 1;
      const status = this.answer(req, Buffer.concat(chunks).toString('utf8'));
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      this.events.emit('request');
    });
  }

  private answer(req: IncomingMessage, rawBody: string): number {
    if (Math.random() < this.failureRate) {
      this.counts.failed += 1;
      return 500;
    }
    const verified = verifyWebhook({ secret: this.secret, headers: req.headers, rawBody });
    if (!verified.ok) {
      this.counts.unverified += 1;
      return 400;
    }
    this.counts.accepted.set(verified.id, (this.counts.accepted.get(verified.id) ?? 0) + 1);
    return 200;
  }
}
