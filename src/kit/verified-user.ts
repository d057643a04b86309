import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Address } from 'viem';

/** How sure the service is of who calls: named by the request (`claimed`) or signed in (`siwe`). */
export type UserLevel = 'claimed' | 'siwe';

/** A user proven by a session token (src/auth): Sign-In with Ethereum on one chain. */
export interface VerifiedUser {
  address: Address;
  chainId: number;
  level: 'siwe';
  /** The session's id (`jti`): what logout puts on the deny-list. */
  sessionId: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/**
 * What a request's `Authorization: Bearer` token proved: null without a token, `refused` (with
 * the reason, for the log and the 401) for a malformed, forged, expired or revoked one.
 */
export type SessionCheck =
  | { user: VerifiedUser }
  | {
      refused: string;
      /** The store of revoked sessions could not answer (503). */ unavailable?: true;
    }
  | null;

/** Where the sign-in route lives, named by every 401 (WWW-Authenticate and message). */
export const SIGN_IN_PATH = '/api/auth/siwe';
export const NONCE_PATH = '/api/auth/nonce';

/**
 * Reads a request's session token. The layer that issues sessions (src/auth) binds its class to
 * this token from a global module; without one, a bearer token proves nothing (null).
 */
export abstract class SessionVerifier {
  abstract check(req: FastifyRequest): Promise<SessionCheck>;
}

/**
 * The bearer token a request carries: undefined without an `Authorization: Bearer` header (another
 * scheme, a gateway's Basic for instance, is not ours to judge); `''` for a Bearer without one.
 */
export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string' || !/^Bearer(\s|$)/i.test(header)) return undefined;
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  return match ? match[1] : '';
}

/**
 * The check of a request with a bearer token, kept on Node's request (checked once, before the
 * rate limits count it): undefined while nobody looked, and for a request without a token.
 */
const CHECKED = Symbol('sessionChecked');
type Checked = IncomingMessage & { [CHECKED]?: SessionCheck };

export const sessionChecks = {
  keep(raw: IncomingMessage, check: SessionCheck): void {
    (raw as Checked)[CHECKED] = check;
  },
  of(raw: IncomingMessage): SessionCheck | undefined {
    return (raw as Checked)[CHECKED];
  },
  /** The verified user of a checked request. */
  user(raw: IncomingMessage): VerifiedUser | undefined {
    const check = (raw as Checked)[CHECKED];
    return check && 'user' in check ? check.user : undefined;
  },
};

/**
 * Checks a request's session once, unless already checked: a promise only when there is a token
 * to verify (a request without `Authorization` costs nothing).
 */
export function checkSession(
  req: FastifyRequest,
  verifier: SessionVerifier | undefined,
): Promise<void> | undefined {
  // Without a token nothing is kept: most requests carry none, and a property written on each
  // would cost every request of every action (asking again is a header read).
  if (!verifier || bearerToken(req) === undefined) return undefined;
  if (sessionChecks.of(req.raw) !== undefined) return undefined;
  return verifier.check(req).then(
    (check) => sessionChecks.keep(req.raw, check),
    // A deny-list that cannot answer proves nothing: the guard answers 503, never a 500.
    () => sessionChecks.keep(req.raw, { refused: 'session store unavailable', unavailable: true }),
  );
}
