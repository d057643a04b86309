import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

export interface ActionAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Calls a transaction action the way the platform does: POST with the parameters in the query
 * string (as text) and no body; the wallet address and chain go in headers.
 */
export async function runAction(
  app: NestFastifyApplication,
  path: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<ActionAnswer> {
  const query = new URLSearchParams(params).toString();
  const response = await app.inject({
    method: 'POST',
    url: query ? `${path}?${query}` : path,
    headers,
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

/** A loopback URL where nothing listens: a port from listen(0), closed again. */
export async function closedRpcUrl(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A node that accepts requests and never answers them. */
export async function stalledRpc(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server: Server = createHttpServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
