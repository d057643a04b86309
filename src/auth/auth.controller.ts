import {
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Post,
  Req,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { generateSiweNonce } from 'viem/siwe';
import { ActionException } from '../contract/action.exception';
import type { ActionResult } from '../contract/action.types';
import { DataRouteInterceptor } from '../kit/data-route.interceptor';
import { GuardedRoute } from '../kit/guarded-route';
import { NONCE_PATH, SIGN_IN_PATH } from '../kit/verified-user';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { AUTH_CONFIG, type AuthConfig, signInAvailable } from './auth.config';
import { AUTH_STORE, type AuthStore } from './auth.store';
import { AuthSessionVerifier } from './auth-session.verifier';
import { SessionTokens } from './session-tokens';
import { SiweVerifier } from './siwe.verifier';

export const LOGOUT_PATH = '/api/auth/logout';

/**
 * Sign-In with Ethereum (docs/verified-users.md): a single-use nonce, the signed message
 * exchanged for a session token, and logout, which puts the token on the deny-list until it
 * expires. Origin checks and rate limits apply as to the actions (GuardedRoute).
 */
@Controller()
@UseInterceptors(DataRouteInterceptor)
export class AuthController {
  /** False in production without AUTH_SECRET (signInAvailable): fixed at boot. */
  private readonly available: boolean;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(APP_CONFIG) app: AppConfig,
    @Inject(AUTH_STORE) private readonly store: AuthStore,
    private readonly siwe: SiweVerifier,
    private readonly tokens: SessionTokens,
    private readonly sessions: AuthSessionVerifier,
  ) {
    this.available = signInAvailable(config, app);
  }

  @Get(NONCE_PATH)
  @GuardedRoute({ path: NONCE_PATH })
  async nonce(): Promise<ActionResult> {
    this.assertAvailable();
    const nonce = generateSiweNonce();
    const expiresAt = Date.now() + this.config.nonceTtlS * 1000;
    await this.store.issueNonce(nonce, this.config.nonceTtlS * 1000);
    return {
      data: { nonce, expiresAt: Math.floor(expiresAt / 1000) },
      message: `Sign an EIP-4361 message with this nonce and POST it to ${SIGN_IN_PATH}`,
    };
  }

  @Post(SIGN_IN_PATH)
  @HttpCode(HttpStatus.OK)
  @GuardedRoute({ path: SIGN_IN_PATH })
  async signIn(@Req() req: FastifyRequest): Promise<ActionResult> {
    this.assertAvailable();
    const { address, chainId } = await this.siwe.verify(req.body, req);
    const session = await this.tokens.issue(address, chainId);
    return {
      data: { token: session.token, address, chainId, expiresAt: session.expiresAt },
      message: `Signed in as ${address}: send the token as Authorization: Bearer <token>`,
    };
  }

  @Post(LOGOUT_PATH)
  @HttpCode(HttpStatus.OK)
  @GuardedRoute({ path: LOGOUT_PATH })
  async logout(@Req() req: FastifyRequest): Promise<ActionResult> {
    const check = await this.sessions.check(req);
    if (!check || !('user' in check)) {
      throw new ActionException(HttpStatus.UNAUTHORIZED, 'No valid session to sign out of', {
        message: 'Send the session token as Authorization: Bearer <token> to sign out',
        data: { code: 'UNVERIFIED_USER', signIn: SIGN_IN_PATH },
        code: 'UNVERIFIED_USER',
      });
    }
    const { sessionId, expiresAt, address } = check.user;
    // Until it expires (and the skew it is forgiven): after that the token is refused anyway.
    const ttlMs = (expiresAt + this.config.clockSkewS) * 1000 - Date.now();
    await this.store.revoke(sessionId, ttlMs);
    return { data: { revoked: true, address }, message: 'Signed out' };
  }

  /** Production without AUTH_SECRET issues nothing (signInAvailable): said, never half-done. */
  private assertAvailable(): void {
    if (this.available) return;
    throw new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Sign-in is not configured', {
      message: 'This deployment does not sign users in: its operator has not configured sign-in',
      data: { code: 'SIGN_IN_UNAVAILABLE' },
      code: 'SIGN_IN_UNAVAILABLE',
    });
  }
}
