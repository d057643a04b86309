import { once } from 'node:events';
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** How one request ended: a complete answer, or an error with what the socket had done. */
export type Outcome =
  | { kind: 'answer'; status: number; body: string; connectionClose: boolean }
  | { kind: 'error'; code: string; reusedSocket: boolean };

/** One request a shutdown test sends, written once and sent through any agent. */
export interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/**
 * A calculator request: an action that answers at once, with no outside call, to tell a served
 * request from a refused one during shutdown.
 */
export const CALCULATOR: Call = {
  method: 'POST',
  path: '/api/calculator',
  body: JSON.stringify({ params: { operation: 'multiply', a: 6, b: 7 } }),
};

/** Sends one request through `agent` and resolves with its outcome (never rejects). */
export function send(agent: Agent, port: number, { method, path, body }: Call): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method,
      path,
      agent,
      headers: body ? { 'content-type': 'application/json' } : {},
    });
    req.on('response', (res) => resolve(readAnswer(res)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ kind: 'error', code: error.code ?? error.message, reusedSocket: req.reusedSocket }),
    );
    req.end(body);
  });
}

function readAnswer(res: IncomingMessage): Promise<Outcome> {
  return new Promise((resolve) => {
    let body = '';
    res.on('data', (chunk: Buffer) => (body += chunk.toString()));
    res.on('end', () =>
      resolve({
        kind: 'answer',
        status: res.statusCode ?? 0,
        body,
        connectionClose: res.headers.connection === 'close',
      }),
    );
    // A reset in the middle of the body is a failure like any other.
    res.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ kind: 'error', code: error.code ?? error.message, reusedSocket: true }),
    );
  });
}

/** A connection refused when it was being opened: the designed answer once the listener is closed. */
export const isRefusal = (outcome: Outcome): boolean =>
  outcome.kind === 'error' && outcome.code === 'ECONNREFUSED' && !outcome.reusedSocket;

/**
 * A keep-alive client (one socket at a time, as a browser tab or a pooled proxy connection)
 * sending `call` in a loop: `warm` resolves after `warmUp` answers; after `signalled()` turns true
 * it goes on until it has been refused `refusals` times or has sent `maxAfter` more requests.
 */
export function loadClient(
  port: number,
  call: Call,
  signalled: () => boolean,
  limits = { warmUp: 20, refusals: 3, maxAfter: 200, maxBefore: 20_000 },
): { warm: Promise<void>; done: Promise<Outcome[]> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let warmed: () => void = () => undefined;
  const warm = new Promise<void>((resolve) => (warmed = resolve));
  const run = async (): Promise<Outcome[]> => {
    const outcomes: Outcome[] = [];
    let refused = 0;
    let after = 0;
    for (let sent = 0; sent < limits.maxBefore + limits.maxAfter; sent++) {
      const late = signalled();
      const outcome = await send(agent, port, call);
      outcomes.push(outcome);
      if (outcomes.length === limits.warmUp) warmed();
      if (isRefusal(outcome)) refused++;
      if (late) after++;
      if (refused >= limits.refusals || after >= limits.maxAfter) break;
    }
    agent.destroy();
    warmed();
    return outcomes;
  };
  return { warm, done: run() };
}

/**
 * A POST whose headers and half of its body are on the wire now (the request is accepted and
 * waiting on the server); `finish()` sends the rest.
 */
export function startSlowPost(
  port: number,
  call: Call = CALCULATOR,
): { connected: Promise<void>; answer: Promise<Outcome>; finish: () => void } {
  const body = call.body ?? '';
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const req = request({
    host: '127.0.0.1',
    port,
    method: call.method,
    path: call.path,
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<Outcome>((resolve) => {
    req.on('response', (res) => resolve(readAnswer(res)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ kind: 'error', code: error.code ?? error.message, reusedSocket: true }),
    );
  });
  const connected = once(req, 'socket').then(([socket]) =>
    once(socket as NodeJS.EventEmitter, 'connect').then(() => undefined),
  );
  req.write(body.slice(0, 10));
  return { connected, answer, finish: () => req.end(body.slice(10)) };
}

/** A geocoding and forecast API on 127.0.0.1 whose geocoding answers wait for `release()`. */
export class HeldWeatherApi {
  private readonly held: ServerResponse[] = [];
  private waiters: Array<() => void> = [];

  private constructor(private readonly server: Server) {}

  /**
   * Starts the API on 127.0.0.1 on a free port; set WEATHER_GEOCODING_URL and WEATHER_FORECAST_URL
   * from `base`.
   */
  static async start(): Promise<HeldWeatherApi> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const api = new HeldWeatherApi(server);
    server.on('request', (req, res) => api.handle(req, res));
    return api;
  }

  /** The API's origin (`http://127.0.0.1:<port>`). */
  get base(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `n` geocoding requests are waiting. */
  async waitForHeld(n: number): Promise<void> {
    while (this.held.length < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Answers every waiting geocoding request. */
  release(): void {
    const place = { results: [{ id: 1, name: 'Paris', latitude: 48.85, longitude: 2.35 }] };
    for (const res of this.held.splice(0)) json(res, place);
  }

  /** Closes every connection, held requests included, then the server. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.url?.startsWith('/forecast')) {
      const current = { time: '2026-11-22T12:00', temperature_2m: 12, wind_speed_10m: 4 };
      return json(res, {
        latitude: 48.85,
        longitude: 2.35,
        current: { ...current, weather_code: 3 },
      });
    }
    this.held.push(res);
    for (const wake of this.waiters.splice(0)) wake();
  }
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
