import type { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The largest request body the facilitator reads: a payment and its requirements are small. */
const MAX_BODY_BYTES = 64 * 1024;

/** A running facilitator server: its URL (X402_FACILITATOR_URL) and how to stop it. */
export interface FacilitatorServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RangeError('body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

function send(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/**
 * An x402 facilitator over HTTP, as x402's HTTPFacilitatorClient calls one: `GET /supported`,
 * `POST /verify` and `POST /settle` with `{x402Version, paymentPayload, paymentRequirements}`,
 * answered by @x402/core's facilitator (docs/agents.md, "Running the facilitator"). A refusal is an
 * answer (`isValid: false`, `success: false`); a failure is a 500 that names no detail.
 */
export async function startFacilitatorServer(
  facilitator: x402Facilitator,
  { host = '127.0.0.1', port = 0 }: { host?: string; port?: number } = {},
): Promise<FacilitatorServer> {
  const server = createServer((req, res) => {
    const route = `${req.method} ${req.url?.split('?')[0]}`;
    if (route === 'GET /supported') return send(res, 200, facilitator.getSupported());
    if (route !== 'POST /verify' && route !== 'POST /settle') {
      return send(res, 404, { error: 'Not found' });
    }
    body(req)
      .then(async (json) => {
        const { paymentPayload, paymentRequirements } = (json ?? {}) as {
          paymentPayload?: PaymentPayload;
          paymentRequirements?: PaymentRequirements;
        };
        if (typeof paymentPayload !== 'object' || typeof paymentRequirements !== 'object') {
          return send(res, 400, { error: 'paymentPayload and paymentRequirements are required' });
        }
        const answer =
          route === 'POST /verify'
            ? await facilitator.verify(paymentPayload, paymentRequirements)
            : await facilitator.settle(paymentPayload, paymentRequirements);
        send(res, 200, answer);
      })
      .catch((error: unknown) => {
        const client = error instanceof SyntaxError || error instanceof RangeError;
        send(res, client ? 400 : 500, {
          error: client ? 'Malformed request' : 'Facilitator failed',
        });
      });
  });
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
