import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One JSON-RPC call a client sent through the recorder. */
export interface RpcCall {
  method: string;
  params?: unknown[];
}

/**
 * A JSON-RPC pass-through on 127.0.0.1 in front of a node, recording what clients send: each
 * HTTP request's calls (several when the client batched them). `delayMs` holds each request and
 * each answer that long (a remote node's latency: a round trip costs twice it).
 */
export class RpcRecorder {
  /**
   * The calls of each HTTP request, in arrival order: a batch is one entry with several calls, so a
   * test can prove what travelled together.
   */
  readonly requests: RpcCall[][] = [];
  /** The node's answer to each request, by the same index (a batch's answers as an array). */
  readonly answers: unknown[] = [];
  /**
   * How long the node took to answer each request, by the same index, in ms (from forwarding it to
   * its answer, the recorder's delays left out): the node's own time, apart from its client's.
   */
  readonly nodeMs: number[] = [];
  /**
   * When set, the next batch reaches the node in two parts, its first call then the rest, with
   * this run between them (then it is cleared): a test mines a block "while the node answers".
   */
  between?: () => Promise<void>;
  /**
   * When set, each call's answer as the client receives it (the recorder keeps what the node
   * said): a test imitates a node that answers one call otherwise.
   */
  answering?: (call: RpcCall, answer: unknown) => unknown;
  /**
   * When set, each request's calls are shown to it before they reach the node, and the request
   * waits for what it returns: a test holds the calls it picks (a slow node, for them only).
   */
  holding?: (calls: RpcCall[]) => Promise<void> | undefined;

  private constructor(
    private readonly server: Server,
    /** The recorder's URL, to configure as the chain's `RPC_URL_<id>` in place of the node's. */
    readonly url: string,
  ) {}

  /**
   * Starts a recorder on 127.0.0.1 on a free port, forwarding every request to the node at
   * `target`, holding each request and answer `delayMs`.
   */
  static async start(target: string, { delayMs = 0 } = {}): Promise<RpcRecorder> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const recorder = new RpcRecorder(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      void recorder.forward(req, target, delayMs).then(async ({ status, body }) => {
        await pause(delayMs);
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
    });
    return recorder;
  }

  /** Every call, in the order the requests arrived. */
  get calls(): RpcCall[] {
    return this.requests.flat();
  }

  /** The `to` of every eth_call. */
  get callTargets(): string[] {
    return this.calls
      .filter((c) => c.method === 'eth_call')
      .map((c) => String((c.params?.[0] as { to?: string } | undefined)?.to).toLowerCase());
  }

  /** Forgets what was recorded, so a test counts only its own calls. */
  reset(): void {
    this.requests.length = 0;
    this.answers.length = 0;
    this.nodeMs.length = 0;
  }

  /** Closes every connection, then the server. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async forward(
    req: IncomingMessage,
    target: string,
    delayMs: number,
  ): Promise<{ status: number; body: string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = JSON.parse(body) as RpcCall | RpcCall[];
    const index = this.requests.push(Array.isArray(parsed) ? parsed : [parsed]) - 1;
    await pause(delayMs);
    await this.holding?.(this.requests[index]);
    const between = Array.isArray(parsed) && parsed.length > 1 ? this.between : undefined;
    let answer: { status: number; body: string };
    const started = performance.now();
    if (between && Array.isArray(parsed)) {
      this.between = undefined;
      const first = await post(target, JSON.stringify([parsed[0]]));
      await between();
      const rest = await post(target, JSON.stringify(parsed.slice(1)));
      const joined = [...(JSON.parse(first.body) as []), ...(JSON.parse(rest.body) as [])];
      answer = { status: rest.status, body: JSON.stringify(joined) };
    } else {
      answer = await post(target, body);
    }
    this.nodeMs[index] = performance.now() - started;
    try {
      this.answers[index] = JSON.parse(answer.body);
    } catch {
      this.answers[index] = answer.body;
    }
    const { answering } = this;
    if (answering && Array.isArray(parsed) && Array.isArray(this.answers[index])) {
      const answers = this.answers[index] as unknown[];
      const changed = parsed.map((call, i) => answering(call, answers[i]));
      return { status: answer.status, body: JSON.stringify(changed) };
    }
    return answer;
  }
}

async function post(target: string, body: string): Promise<{ status: number; body: string }> {
  const response = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: await response.text() };
}

const pause = (ms: number): Promise<void> =>
  ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
