import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request as httpRequest,
  type ServerResponse,
} from 'node:http';
import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { WEBHOOK_HEADERS } from '../../src/kit/webhook-signature';
import { WebhookSender } from '../../src/outcomes/webhooks/webhook.sender';
import type { TransactionOutcome } from '../../src/outcomes/outcome.types';
import { CountingServer } from './counting.server';

/** A WEBHOOK_SECRET of the scheme's form (`whsec_` and 32 random bytes in base64), per run. */
export const TEST_WEBHOOK_SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/** One request the receiver got, and how it answered (`none`: it never did). */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  answered: number | 'none';
}

/**
 * What the receiver answers to the nth request (1-based) of a delivery id: a status now, one
 * later (a promise: the request held until then), or never (`hang`).
 */
export type WebhookAnswer = (nth: number, id: string) => number | Promise<number> | 'hang';

/**
 * A webhook receiver on 127.0.0.1 (listen(0)): keeps every request with its raw body, answers
 * per delivery id as `answer` says (200 by default), and lets a test wait for what it received.
 */
export class WebhookReceiver {
  /**
   * Every request received, oldest first, raw body kept so a test can verify the signature over
   * exactly those bytes.
   */
  readonly received: ReceivedWebhook[] = [];
  /**
   * How the next requests are answered, per delivery id and attempt: swap it to make the receiver
   * fail, hold or hang.
   */
  answer: WebhookAnswer = () => 200;
  private replays = 0;

  private constructor(private readonly server: CountingServer) {}

  /** Starts the receiver on 127.0.0.1 on a free port, answering 200 to everything. */
  static async start(): Promise<WebhookReceiver> {
    const server = await CountingServer.start(() => undefined);
    const receiver = new WebhookReceiver(server);
    server.handler = (req, res, body) => receiver.handle(req, res, body);
    return receiver;
  }

  /** The URL to configure as the webhook's target. */
  get url(): string {
    return `${this.server.base}/hooks`;
  }

  /** Requests of one delivery id, in the order they came. */
  of(id: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.headers[WEBHOOK_HEADERS.id] === id);
  }

  /** Resolves once the condition holds, checked on every request and every closed connection. */
  until(condition: () => boolean): Promise<void> {
    return this.server.until(condition);
  }

  /** Closes every connection, held requests included, then the server. */
  close(): Promise<void> {
    return this.server.close();
  }

  /**
   * Sends a request it received to it again, as whoever captured it could: the same body and
   * webhook-* headers, changed by `headers` (undefined: left out; an array: the header sent
   * once per value, as separate lines). Resolves with the copy as received.
   */
  async replay(original: ReceivedWebhook, headers: OutgoingHttpHeaders): Promise<ReceivedWebhook> {
    const tag = `replay-${this.replays++}`;
    const signed: readonly string[] = Object.values(WEBHOOK_HEADERS);
    const copied = Object.entries(original.headers).filter(([name]) => signed.includes(name));
    const merged: OutgoingHttpHeaders = { ...Object.fromEntries(copied), ...headers };
    const sent = Object.entries(merged).filter(([, value]) => value !== undefined);
    const req = httpRequest(this.url, {
      method: 'POST',
      headers: { ...Object.fromEntries(sent), 'content-type': 'application/json', 'x-replay': tag },
    });
    req.end(original.body);
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    res.resume();
    await once(res, 'end');
    return this.received.find((request) => request.headers['x-replay'] === tag)!;
  }

  private handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const request: ReceivedWebhook = { headers: req.headers, body, answered: 'none' };
    this.received.push(request);
    const id = String(req.headers[WEBHOOK_HEADERS.id]);
    const status = this.answer(this.of(id).length, id);
    if (status === 'hang') return;
    void Promise.resolve(status).then((code) => {
      request.answered = code;
      res.writeHead(code, { 'content-type': 'application/json' }).end('{}');
    });
  }
}

/** Every attempt the app's WebhookSender made, told as each settles (a spy that calls through). */
export class AttemptWatch {
  private readonly events = new EventEmitter();
  /**
   * Every attempt settled so far, with its delivery id, attempt number and whether it succeeded.
   */
  readonly settled: { id: string; attempt: number; ok: boolean }[] = [];

  constructor(app: NestFastifyApplication) {
    const sender = app.get(WebhookSender);
    const original = sender.attempt.bind(sender);
    jest.spyOn(sender, 'attempt').mockImplementation(async (delivery, attempt, max) => {
      try {
        await original(delivery, attempt, max);
        this.record(delivery.id, attempt, true);
      } catch (error) {
        this.record(delivery.id, attempt, false);
        throw error;
      }
    });
  }

  /** Resolves once the condition holds, checked each time an attempt settles. */
  async until(condition: () => boolean): Promise<void> {
    while (!condition()) await once(this.events, 'settled');
  }

  private record(id: string, attempt: number, ok: boolean): void {
    this.settled.push({ id, attempt, ok });
    this.events.emit('settled');
  }
}

/** A settled outcome of a made-up intent, as the watcher hands it to OUTCOME_SINK. */
export function outcomeOf(
  intent: string,
  status: TransactionOutcome['status'] = 'confirmed',
): TransactionOutcome {
  return {
    status,
    deliveryId: `${intent}.${status}`,
    occurredAt: Date.UTC(2026, 0, 1),
    intent: {
      id: intent,
      action: '/api/send-token',
      chainId: 31337,
      user: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
      to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      data: '0x',
      value: '1000',
      status: status === 'reorged' ? 'confirmed' : status,
      hash: status === 'expired' ? undefined : `0x${'ab'.repeat(32)}`,
      blockNumber: status === 'confirmed' || status === 'reverted' ? '12' : undefined,
      createdAt: Date.UTC(2026, 0, 1) - 60_000,
      updatedAt: Date.UTC(2026, 0, 1),
    },
  };
}
