import { HttpStatus } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ActionException } from '../contract/action.exception';
import type { ActionCall } from './action-call';
import { NONCE_PATH, SIGN_IN_PATH, sessionChecks } from './verified-user';

/** The challenge every 401 carries (RFC 6750), naming where to sign in. */
function challenge(reply: FastifyReply, error?: string): void {
  const parts = [`Bearer realm="${SIGN_IN_PATH}"`];
  if (error) parts.push(`error="${error}"`);
  // On Node's response, as the rate-limit headers: the exception filter keeps what is set there.
  reply.raw.setHeader('www-authenticate', parts.join(', '));
}

const SIGN_IN = `Sign in with Ethereum: GET ${NONCE_PATH}, then POST ${SIGN_IN_PATH}, and send the token as Authorization: Bearer <token>`;

/**
 * The session steps of the context guard, for every action (the first before anything else of
 * the context, the second once the chains are known to be served):
 * - a bearer token that proves nothing (malformed, forged, expired, revoked, another audience) is
 *   a 401 `UNVERIFIED_USER` on any action: the caller meant to prove who it is and did not;
 * - an action declared `user: 'verified'` without a session is the same 401;
 * - a session whose address is not the one the request claims is a 403 `USER_MISMATCH`;
 * - a session signed in on another chain than the request's is a 403 `SESSION_CHAIN_MISMATCH`:
 *   a contract wallet's owners differ per chain, so a signature proves the address on its chain only.
 * A store of sessions that cannot answer is a 503, never a 500 nor a pass.
 */
export function refuseInvalidToken(call: ActionCall, reply: FastifyReply): void {
  const check = sessionChecks.of(call.req.raw);
  if (check && 'refused' in check) {
    if (check.unavailable) {
      throw new ActionException(HttpStatus.SERVICE_UNAVAILABLE, 'Sessions are unavailable', {
        message: 'The service is busy, please try again shortly',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    challenge(reply, 'invalid_token');
    throw new ActionException(HttpStatus.UNAUTHORIZED, 'Invalid session token', {
      message: `Your session is not valid (${check.refused}). ${SIGN_IN}`,
      data: { code: 'UNVERIFIED_USER', signIn: SIGN_IN_PATH },
      code: 'UNVERIFIED_USER',
      details: check.refused,
    });
  }
}

/** The declaration's demand (`user: 'verified'`) and the claimed user against the verified one. */
export function refuseUnverified(call: ActionCall, reply: FastifyReply): void {
  const verified = call.verified;
  if (!verified) {
    if (call.declaration.user !== 'verified') return;
    challenge(reply);
    throw new ActionException(HttpStatus.UNAUTHORIZED, 'A verified user is required', {
      message: `This action shows your own data. ${SIGN_IN}`,
      data: { code: 'UNVERIFIED_USER', signIn: SIGN_IN_PATH },
      code: 'UNVERIFIED_USER',
    });
  }
  const user = call.context.userAddress;
  if (user && user.toLowerCase() !== verified.address.toLowerCase()) {
    throw new ActionException(HttpStatus.FORBIDDEN, 'The claimed user is not the signed-in user', {
      message: 'You are signed in with another wallet than the one this request names',
      data: { code: 'USER_MISMATCH', invalidParams: ['userAddress'] },
      code: 'USER_MISMATCH',
    });
  }
  // The request's chain as the action runs it (ChainRegistry.forRequest): named, else the source.
  const chainId = call.context.sourceChain ?? call.declaration.chains.source;
  if (chainId !== verified.chainId) {
    throw new ActionException(HttpStatus.FORBIDDEN, 'The session is for another chain', {
      message: `You signed in on chain ${verified.chainId}, and this request runs on chain ${chainId}: sign in on chain ${chainId}`,
      data: {
        code: 'SESSION_CHAIN_MISMATCH',
        signIn: SIGN_IN_PATH,
        sessionChain: verified.chainId,
      },
      code: 'SESSION_CHAIN_MISMATCH',
    });
  }
}
