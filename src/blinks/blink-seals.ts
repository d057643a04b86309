import { Inject, Injectable } from '@nestjs/common';
import { hkdfSync } from 'node:crypto';
import { type Address, getAddress, isAddress } from 'viem';
import { AUTH_CONFIG, type AuthConfig } from '../auth/auth.config';
import { jose, SessionTokens } from '../auth/session-tokens';
import { blinkPath } from './blink-catalogue';

/**
 * The sign-in message a blink asked a wallet to sign, as its `state` carries it: every field of the
 * message the service wrote, so that it verifies only a message it wrote itself.
 */
export interface SignInState {
  account: Address;
  chainId: number;
  nonce: string;
  domain: string;
  uri: string;
  issuedAt: Date;
  expirationTime: Date;
}

/** A session as a blink carries it: the token, for whom and until when (epoch seconds). */
export interface BlinkSession {
  token: string;
  account: Address;
  expiresAt: number;
}

/** Why a seal proves nothing: out of date, or not this service's (changed, another blink's). */
export type Refused = { refused: 'expired' | 'invalid' };

const STATE_TYPE = 'blink-sign-in+jwt';
const SESSION_TYPE = 'blink-session+jwt';

/** A key of its own for each use, drawn from AUTH_SECRET: no seal can pass for a session token. */
const keyFor = (secret: Uint8Array, use: string): Uint8Array =>
  new Uint8Array(hkdfSync('sha256', secret, 'dynamic-actions blinks', use, 32));

const refusal = (error: unknown): Refused => ({
  refused: error instanceof jose().errors.JWTExpired ? 'expired' : 'invalid',
});

/**
 * What a blink's sign-in seals with AUTH_SECRET (jose), bound to the blink (audience: its path) and
 * this service (issuer: the sessions' audience):
 * - the `state` of its `message` answer: a JWS (HS256) of every field of the message it asked the
 *   wallet to sign (the nonce, the account, the chain, the domain, the times), expiring with the
 *   nonce; a client that changes any of them breaks the MAC.
 * - the session it then carries: a JWE (dir, A256GCM) of the session token, so the client holds
 *   it without reading it, expiring after AUTH_NONCE_TTL_S (never after the token itself).
 */
@Injectable()
export class BlinkSeals {
  private readonly stateKey: Uint8Array;
  private readonly sessionKey: Uint8Array;
  private readonly issuer: string;

  constructor(
    @Inject(AUTH_CONFIG) private readonly auth: AuthConfig,
    tokens: SessionTokens,
  ) {
    this.stateKey = keyFor(auth.secret, 'sign-in state');
    this.sessionKey = keyFor(auth.secret, 'session');
    this.issuer = tokens.audience;
  }

  /** The `state` of a sign-in answer: the message's fields, MAC'd, until the nonce expires. */
  state(blink: string, state: SignInState): Promise<string> {
    return new (jose().SignJWT)({
      chain: state.chainId,
      nonce: state.nonce,
      domain: state.domain,
      uri: state.uri,
      issued: state.issuedAt.toISOString(),
    })
      .setProtectedHeader({ alg: 'HS256', typ: STATE_TYPE })
      .setSubject(state.account)
      .setIssuer(this.issuer)
      .setAudience(blinkPath(blink))
      .setExpirationTime(Math.floor(state.expirationTime.getTime() / 1000))
      .sign(this.stateKey);
  }

  /** The fields a state sealed, if this service sealed them for this blink and they hold. */
  async readState(blink: string, sealed: string): Promise<SignInState | Refused> {
    try {
      const { payload } = await jose().jwtVerify(sealed, this.stateKey, {
        algorithms: ['HS256'],
        typ: STATE_TYPE,
        issuer: this.issuer,
        audience: blinkPath(blink),
        clockTolerance: this.auth.clockSkewS,
        requiredClaims: ['sub', 'exp'],
      });
      const { sub, exp, chain, nonce, domain, uri, issued } = payload;
      const fields = [nonce, domain, uri, issued];
      if (!sub || !isAddress(sub) || !Number.isSafeInteger(chain) || fields.some(notText)) {
        return { refused: 'invalid' };
      }
      const issuedAt = new Date(issued as string);
      if (Number.isNaN(issuedAt.getTime())) return { refused: 'invalid' };
      return {
        account: getAddress(sub),
        chainId: chain as number,
        nonce: nonce as string,
        domain: domain as string,
        uri: uri as string,
        issuedAt,
        expirationTime: new Date((exp as number) * 1000),
      };
    } catch (error) {
      return refusal(error);
    }
  }

  /** The session as the blink carries it: encrypted, for this blink, short-lived. */
  async session(blink: string, session: BlinkSession): Promise<string> {
    const expiresAt = Math.min(
      session.expiresAt,
      Math.floor(Date.now() / 1000) + this.auth.nonceTtlS,
    );
    return new (jose().EncryptJWT)({ token: session.token })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', typ: SESSION_TYPE })
      .setSubject(session.account)
      .setIssuer(this.issuer)
      .setAudience(blinkPath(blink))
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .encrypt(this.sessionKey);
  }

  /** The session a blink carried, if this service sealed it for this blink and it is in time. */
  async openSession(blink: string, sealed: string): Promise<BlinkSession | Refused> {
    try {
      const { payload } = await jose().jwtDecrypt(sealed, this.sessionKey, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        typ: SESSION_TYPE,
        issuer: this.issuer,
        audience: blinkPath(blink),
        clockTolerance: this.auth.clockSkewS,
        requiredClaims: ['sub', 'exp'],
      });
      const { sub, exp, token } = payload;
      if (!sub || !isAddress(sub) || typeof token !== 'string') return { refused: 'invalid' };
      return { token, account: getAddress(sub), expiresAt: exp as number };
    } catch (error) {
      return refusal(error);
    }
  }
}

const notText = (value: unknown): boolean => typeof value !== 'string' || value === '';
