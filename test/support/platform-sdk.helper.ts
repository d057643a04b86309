import { once } from 'node:events';
import type { ActionParameter, DynamicAction } from '../../src/contract/action.types';
import { type RawAnswer, RawClient, parseAnswer } from './raw-http.helper';

/**
 * The requests the platform makes to a dynamic action, written byte for byte as
 * shared/platform/mini-app-platform.md ("How an action is executed") and the SDK's source
 * (SherryLabs/sherry-sdk: src/executors/dynamicExecutor.ts, src/headers/headers.ts) describe
 * them. The tests send them over a real socket and read the answer off the wire.
 */

/** A published action as a mini-app holds it: 2.20 mini-apps name chains by legacy name. */
export type MiniAppAction = Omit<DynamicAction, 'chains'> & {
  chains: { source: number | string; destination?: number | string };
};

/**
 * A mini-app form's values by parameter name, as the SDK holds them before it builds the request.
 */
export type Inputs = Record<string, string | number | boolean | undefined>;

/**
 * The context the SDK sends with a run: the user's address and the chains as the mini-app names
 * them.
 */
export interface ExecutionContext {
  userAddress: string;
  /** What the mini-app gave: a chain id or a name. */
  sourceChain: number | string;
  destinationChain?: number | string;
}

/** A request as the SDK would write it, ready for RawClient: target, headers in order, body. */
export interface RawRequest {
  /** The request line's target: path and query. */
  target: string;
  headers: [string, string][];
  body?: string;
}

const PLAIN = ['string', 'number', 'boolean'];

/** `sensitive: true` or `queryParam: false`: the SDK keeps the value out of the query string. */
const bodyOnly = (param: ActionParameter): boolean =>
  param.sensitive === true || param.queryParam === false;

/** Current SDK: every parameter the user filled in, as text, in declaration order. */
function proxyQuery(params: readonly ActionParameter[], inputs: Inputs): string {
  const query = new URLSearchParams();
  for (const param of params) {
    if (bodyOnly(param)) continue;
    const value = inputs[param.name];
    if (value !== undefined && value !== null) query.set(param.name, String(value));
  }
  return query.toString();
}

/** Current SDK: the parameters that are not plain text, numbers or booleans, defaults filled. */
function proxyParams(params: readonly ActionParameter[], inputs: Inputs): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const param of params) {
    if (PLAIN.includes(param.type) && !bodyOnly(param)) continue;
    const value = inputs[param.name];
    if (value !== undefined && value !== null) body[param.name] = value;
    else if (param.value !== undefined) body[param.name] = param.value;
  }
  return body;
}

/**
 * The proxy's execution request (SDK 2.27–2.28 through the platform proxy): the query holds
 * every parameter, the JSON body `{action, params, context}`, and the proxy adds its headers
 * (X-Destination-Chain and X-Wallet-Address only when there is one).
 */
export function proxyExecution(
  action: MiniAppAction,
  inputs: Inputs,
  context: ExecutionContext,
  timestamp = Date.now(),
): RawRequest {
  const params = action.params ?? [];
  const query = proxyQuery(params, inputs);
  const body = JSON.stringify({
    action: action.label,
    params: proxyParams(params, inputs),
    context: {
      userAddress: context.userAddress,
      sourceChain: context.sourceChain,
      destinationChain: context.destinationChain,
    },
  });
  const headers: [string, string][] = [
    ['X-Sherry-Proxy', 'true'],
    ['X-Sherry-Version', '1.0.0'],
    ['Content-Type', 'application/json'],
    ['X-Timestamp', String(timestamp)],
    ['X-Chain-ID', String(context.sourceChain)],
  ];
  if (context.destinationChain !== undefined) {
    headers.push(['X-Destination-Chain', String(context.destinationChain)]);
  }
  if (context.userAddress) headers.push(['X-Wallet-Address', context.userAddress]);
  return { target: query ? `${action.path}?${query}` : action.path, headers, body };
}

/**
 * The 2.20 build, which calls the backend itself: POST without a body; the query holds each
 * parameter (a declared default or fixed value in place of the user's, as that build does),
 * then `userAddress`, `chain` and `destinationChain`; the chains are the mini-app's legacy names.
 */
export function legacyExecution(
  action: MiniAppAction,
  inputs: Inputs,
  context: { userAddress?: string },
): RawRequest {
  const query = new URLSearchParams();
  for (const param of action.params ?? []) {
    const fixed = (param as ActionParameter & { fixed?: boolean }).fixed;
    if (fixed || param.value !== undefined) query.append(param.name, String(param.value));
    else if (inputs[param.name] !== undefined) query.append(param.name, String(inputs[param.name]));
  }
  if (context.userAddress) query.append('userAddress', context.userAddress);
  query.append('chain', String(action.chains.source));
  if (action.chains.destination) {
    query.append('destinationChain', String(action.chains.destination));
  }
  return {
    target: `${action.path}?${query.toString()}`,
    headers: [
      ['Accept', 'application/json'],
      ['x-sdk-version', '1.0.0'],
      ['x-wallet-address', context.userAddress || ''],
      ['x-chain-id', String(action.chains.source)],
    ],
  };
}

/** The request as it goes on the wire, with the Host and Content-Length any HTTP client adds. */
export function wireBytes(request: RawRequest, host: string): Buffer {
  const body = Buffer.from(request.body ?? '', 'utf8');
  const lines = [
    `POST ${request.target} HTTP/1.1`,
    `Host: ${host}`,
    ...request.headers.map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${body.length}`,
  ];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** Sends a request on a new connection and reads one answer (its body decoded as UTF-8). */
export async function sendRaw(port: number, request: RawRequest): Promise<RawAnswer> {
  const client = await RawClient.open(port);
  try {
    client.socket.write(wireBytes(request, `127.0.0.1:${port}`));
    for (;;) {
      const end = client.received.indexOf('\r\n\r\n');
      if (end >= 0) {
        const answer = parseAnswer(client.received);
        const length = Number(answer.headers['content-length']);
        if (client.received.length - end - 4 >= length) {
          return { ...answer, body: Buffer.from(answer.body, 'latin1').toString('utf8') };
        }
      }
      if (client.socket.destroyed) throw new Error(`connection closed: ${client.received}`);
      await Promise.race([once(client.socket, 'data'), client.closed]);
    }
  } finally {
    client.destroy();
  }
}

/** What the current SDK accepts back in transaction mode (platform page, item 5). */
export function platformAcceptsTransaction(body: Record<string, unknown>): boolean {
  const { serializedTransaction, chainId, abi, params, crossChain } = body;
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  return (
    typeof serializedTransaction === 'string' &&
    serializedTransaction.length > 0 &&
    (typeof chainId === 'number' || typeof chainId === 'string') &&
    (abi === undefined || Array.isArray(abi)) &&
    (params === undefined ||
      (isObject(params) && typeof params.functionName === 'string' && isObject(params.args))) &&
    (crossChain === undefined ||
      (isObject(crossChain) && crossChain.destinationChainId !== undefined))
  );
}
