import { Inject, Injectable } from '@nestjs/common';
import type * as Jose from 'jose';
import { randomUUID } from 'node:crypto';
import { type Address, getAddress, isAddress } from 'viem';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import type { VerifiedUser } from '../kit/verified-user';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';

/** Who issues the tokens: checked on every one, as the audience is. */
export const ISSUER = 'dynamic-actions-backend';
const ALGORITHM = 'HS256';

/**
 * jose, loaded with the first session issued or read (here and by a blink's sign-in seals): most
 * requests carry no token, and the library took about 50 ms of every boot (docs/performance.md).
 */
let loaded: typeof Jose | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const jose = (): typeof Jose => (loaded ??= require('jose') as typeof Jose);

/** A session as issued: its token and what it proves. */
export interface IssuedSession extends VerifiedUser {
  token: string;
}

/**
 * Session tokens: JWTs (jose) signed with AUTH_SECRET, HS256 only, bound to the signed-in address
 * (`sub`), its chain (`chain_id`) and this service (`aud`: PUBLIC_BASE_URL, or the service's name),
 * with an id (`jti`) logout puts on the deny-list. Reading one never throws: anything but a valid
 * token of this service (`alg: none`, another key, another audience, expired beyond the skew,
 * malformed claims) is a reason to refuse.
 */
@Injectable()
export class SessionTokens {
  readonly audience: string;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(APP_CONFIG) app: AppConfig,
  ) {
    this.audience = app.publicBaseUrl ?? ISSUER;
  }

  async issue(address: Address, chainId: number): Promise<IssuedSession> {
    const sessionId = randomUUID();
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = now + this.config.sessionTtlS;
    const token = await new (jose().SignJWT)({ chain_id: chainId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(address)
      .setIssuer(ISSUER)
      .setAudience(this.audience)
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .setJti(sessionId)
      .sign(this.config.secret);
    return { token, address, chainId, level: 'siwe', sessionId, expiresAt };
  }

  /** What a token proves, or why it proves nothing. */
  async read(token: string): Promise<VerifiedUser | { refused: string }> {
    try {
      const { payload } = await jose().jwtVerify(token, this.config.secret, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: this.audience,
        clockTolerance: this.config.clockSkewS,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      });
      const { sub, jti, exp, chain_id: chainId } = payload;
      if (!sub || !isAddress(sub) || !jti || !exp || !Number.isSafeInteger(chainId)) {
        return { refused: 'malformed claims' };
      }
      // `iat` in the future beyond the skew: a token from a clock that cannot be trusted.
      if ((payload.iat ?? 0) > Date.now() / 1000 + this.config.clockSkewS) {
        return { refused: 'issued in the future' };
      }
      return {
        address: getAddress(sub),
        chainId: chainId as number,
        level: 'siwe',
        sessionId: jti,
        expiresAt: exp,
      };
    } catch (error) {
      return { refused: reasonOf(error) };
    }
  }
}

/** A short reason, for the log and the 401's details (shown in development only). */
function reasonOf(error: unknown): string {
  const { errors } = jose();
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) return `claim ${error.claim} refused`;
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'signature invalid';
  return 'malformed token';
}
