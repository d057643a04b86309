import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bearerToken, type SessionCheck, SessionVerifier } from '../kit/verified-user';
import { AUTH_STORE, type AuthStore } from './auth.store';
import { SessionTokens } from './session-tokens';

/**
 * The kit's session step (bound to SessionVerifier): a request's bearer token checked with
 * SessionTokens, then against the deny-list. A store that is out rejects (the kit answers 503).
 */
@Injectable()
export class AuthSessionVerifier extends SessionVerifier {
  constructor(
    private readonly tokens: SessionTokens,
    @Inject(AUTH_STORE) private readonly store: AuthStore,
  ) {
    super();
  }

  async check(req: FastifyRequest): Promise<SessionCheck> {
    const token = bearerToken(req);
    if (token === undefined) return null;
    if (token === '') return { refused: 'not a bearer token' };
    const read = await this.tokens.read(token);
    if ('refused' in read) return read;
    if (await this.store.isRevoked(read.sessionId)) return { refused: 'signed out' };
    return { user: read };
  }
}
