import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { HDAccount } from 'viem';
import type { LocalChain } from '../../src/testing/evm/local-chain';
import { signAndSend } from '../../src/testing/evm/wallet';

/** An action's answer through inject: status and the parsed JSON body. */
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

/** What the service answered for an action that needed an approval first, and then the action. */
export interface ApprovedRun {
  approval: ActionAnswer;
  answer: ActionAnswer;
}

/**
 * A wallet that never approved: the first answer must be the approval (step 1 of 2), which the
 * wallet signs and lands; then the same request answers the action itself.
 */
export async function approveThenRun(
  chain: LocalChain,
  account: HDAccount,
  app: NestFastifyApplication,
  path: string,
  params: Record<string, string>,
): Promise<ApprovedRun> {
  const headers = { 'x-wallet-address': account.address };
  const approval = await runAction(app, path, params, headers);
  const shown = approval.body.params as { functionName?: string; args?: { step?: number } };
  if (approval.status !== 200 || shown?.functionName !== 'approve' || shown.args?.step !== 1) {
    throw new Error(`Expected the approval first, got ${JSON.stringify(approval)}`);
  }
  const { receipt } = await signAndSend(
    chain,
    account,
    approval.body.serializedTransaction as string,
  );
  if (receipt.status !== 'success') throw new Error('The approval did not land');
  return { approval, answer: await runAction(app, path, params, headers) };
}
