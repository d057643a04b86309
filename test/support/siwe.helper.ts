import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Address, Hex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { type InjectedJson, postJson } from './app.factory';

/** The host the suites' apps answer for (PUBLIC_BASE_URL). */
export const SIWE_HOST = 'actions.test';
/** The base URL those apps publish: a message's `uri`. */
export const SIWE_BASE = `http://${SIWE_HOST}`;

/** What a sign-in message says that differs between wallets and tests. */
export interface MessageFields {
  address: Address;
  chainId: number;
  nonce: string;
  domain?: string;
  uri?: string;
  issuedAt?: Date;
  expirationTime?: Date;
  notBefore?: Date;
}

/** An EIP-4361 message as a wallet would show it, for this service unless told otherwise. */
export function siweMessage(fields: MessageFields): string {
  return createSiweMessage({
    domain: SIWE_HOST,
    uri: SIWE_BASE,
    version: '1',
    statement: 'Sign in to the dynamic actions service',
    issuedAt: new Date(),
    ...fields,
  });
}

/** A fresh nonce from the service. */
export async function nonceOf(app: NestFastifyApplication): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/auth/nonce' });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { nonce: string } }>().data.nonce;
}

/** The envelope `POST /api/auth/siwe` answers: the session on success. */
export interface SignInAnswer {
  success: boolean;
  data?: { token: string; address: Address; chainId: number; expiresAt: number };
  error?: string;
  message?: string;
}

/** Posts a signed message to the sign-in route. */
export function postSignIn(
  app: NestFastifyApplication,
  message: string,
  signature: Hex,
): Promise<InjectedJson<SignInAnswer>> {
  return postJson<SignInAnswer>(app, '/api/auth/siwe', { message, signature });
}

/** Signs in as `address` (whose signer is `sign`), on `chainId`: the session token. */
export async function signInAs(
  app: NestFastifyApplication,
  address: Address,
  sign: (message: string) => Promise<Hex>,
  chainId: number,
  fields: Partial<MessageFields> = {},
): Promise<string> {
  const message = siweMessage({ address, chainId, nonce: await nonceOf(app), ...fields });
  const answer = await postSignIn(app, message, await sign(message));
  expect([answer.status, answer.body.error]).toEqual([200, undefined]);
  expect(answer.body.data?.address).toBe(address);
  return answer.body.data!.token;
}

/** A POST to an action with a bearer token (and optional other headers). */
export function postWithToken(
  app: NestFastifyApplication,
  url: string,
  token: string | undefined,
  payload: unknown = {},
  headers: Record<string, string> = {},
): Promise<InjectedJson> {
  return postJson(app, url, payload, {
    ...(token !== undefined && { authorization: `Bearer ${token}` }),
    ...headers,
  });
}
