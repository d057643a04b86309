import type { DynamicActionDataResponse } from '../contract/action.types';
import type { FetchLike } from './client.types';
import { clientFailure, exchange, serviceUrl, withExtraHeaders } from './transport';
import { isDataResponse } from './response-kinds';

/**
 * What signIn needs of a wallet: its address, its chain and a personal_sign (EIP-191), as a
 * browser wallet's provider gives them. A viem account is taken as it is: see SignInAccount.
 */
export interface SignInWallet {
  /** Checksummed, as EIP-4361 writes it. */
  address: string;
  /** The chain the session is for: the chain of the actions it will call. */
  chainId: number;
  /** Signs the message text with personal_sign (EIP-191) and answers the signature. */
  signMessage: (message: string) => Promise<string>;
}

/**
 * A viem local account (`privateKeyToAccount`, `mnemonicToAccount`) as signIn takes it: its
 * address and its own `signMessage({ message })`. It knows no chain: pass `chainId` in the options.
 */
export interface SignInAccount {
  /** Checksummed, as viem gives it. */
  address: string;
  /** viem's: signs `message` with EIP-191. */
  signMessage: (args: { message: string }) => Promise<string>;
}

/** Where and how signIn signs in. */
export interface SignInOptions {
  /** The service, as for executeDynamic. */
  baseUrl: string;
  /**
   * The chain the session is for, with a viem account (which knows none); a SignInWallet's own
   * `chainId` wins.
   */
  chainId?: number;
  /** The sentence the wallet shows above the fields. */
  statement?: string;
  fetch?: FetchLike;
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** A session: send it as executeDynamic's `session` on every call. */
export interface Session {
  /** The bearer token: `Authorization: Bearer <token>` on a request sent by hand. */
  token: string;
  address: string;
  chainId: number;
  /** Epoch seconds. */
  expiresAt: number;
}

/**
 * What signIn answers, never a throw: `{ ok: true, session }`, or `{ ok: false, failure }` with
 * the service's refusal (or the transport's) as a data envelope (`failure.error`, `failure.message`).
 */
export type SignInResult =
  { ok: true; session: Session } | { ok: false; failure: DynamicActionDataResponse<never> };

/**
 * An EIP-4361 message, field by field as the EIP writes it (the SDK loads no package; the
 * service parses it with viem). `domain` and `uri` are the service's own.
 */
export function siweMessageText(fields: {
  domain: string;
  address: string;
  statement?: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
}): string {
  const lines = [
    `${fields.domain} wants you to sign in with your Ethereum account:`,
    fields.address,
    '',
  ];
  if (fields.statement) lines.push(fields.statement, '');
  lines.push(
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
  );
  return lines.join('\n');
}

/**
 * Signs in with Ethereum (docs/verified-users.md): a nonce from the service, the wallet's
 * signature of the message naming it, exchanged for a session. EOAs and smart wallets alike
 * (ERC-1271, ERC-6492): the service checks the signature on the chain. Never throws: it answers
 * `{ ok: true, session }` (send `session` as executeDynamic's `session`, or `session.token` as
 * `Authorization: Bearer <token>`) or `{ ok: false, failure }`, the service's refusal.
 *
 * @param wallet - a SignInWallet (a browser wallet's address, chain and personal_sign), or a viem
 *   account as it is (then `options.chainId` names the chain).
 * @param options - the service's `baseUrl`, and `chainId` with a viem account.
 */
export async function signIn(
  wallet: SignInWallet | SignInAccount,
  options: SignInOptions,
): Promise<SignInResult> {
  const signer = asWallet(wallet, options.chainId);
  if ('failure' in signer) return { ok: false, failure: signer.failure };
  return signInWith(signer, options);
}

/** A viem account as a SignInWallet, on the chain the options name. */
function asWallet(
  wallet: SignInWallet | SignInAccount,
  chainId: number | undefined,
): SignInWallet | { failure: DynamicActionDataResponse<never> } {
  if ('chainId' in wallet && typeof wallet.chainId === 'number') return wallet;
  if (chainId === undefined) {
    return { failure: clientFailure('signIn with a viem account needs options.chainId') };
  }
  const account = wallet as SignInAccount;
  return {
    address: account.address,
    chainId,
    signMessage: (message) => account.signMessage({ message }),
  };
}

async function signInWith(wallet: SignInWallet, options: SignInOptions): Promise<SignInResult> {
  const headers = withExtraHeaders(options.headers, {});
  const nonce = await exchange(
    serviceUrl(options.baseUrl, '/api/auth/nonce'),
    { method: 'GET', headers, signal: options.signal },
    options.fetch,
  );
  const nonceData = answered<{ nonce: string }>(nonce);
  if ('failure' in nonceData) return { ok: false, failure: nonceData.failure };
  const base = new URL(options.baseUrl);
  const message = siweMessageText({
    domain: base.host,
    address: wallet.address,
    statement: options.statement ?? 'Sign in to prove this is your wallet.',
    uri: base.origin,
    chainId: wallet.chainId,
    nonce: nonceData.data.nonce,
    issuedAt: new Date(),
  });
  let signature: string;
  try {
    signature = await wallet.signMessage(message);
  } catch (error) {
    return { ok: false, failure: clientFailure(`The wallet did not sign: ${String(error)}`) };
  }
  const signedIn = await exchange(
    serviceUrl(options.baseUrl, '/api/auth/siwe'),
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ message, signature }),
      signal: options.signal,
    },
    options.fetch,
  );
  const session = answered<Session>(signedIn);
  return 'failure' in session
    ? { ok: false, failure: session.failure }
    : { ok: true, session: session.data };
}

/** The data of a successful envelope; the envelope (or the transport's failure) otherwise. */
function answered<T>(
  answer: Awaited<ReturnType<typeof exchange>>,
): { data: T } | { failure: DynamicActionDataResponse<never> } {
  if (!answer.ok) return { failure: answer.failure };
  if (!isDataResponse(answer.body)) {
    return {
      failure: clientFailure(`Sign-in answered an unexpected shape (HTTP ${answer.status})`),
    };
  }
  const body = answer.body as DynamicActionDataResponse<T>;
  return body.success && body.data !== undefined
    ? { data: body.data }
    : { failure: body as DynamicActionDataResponse<never> };
}
