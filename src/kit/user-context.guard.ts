import { CanActivate, ExecutionContext, HttpStatus, Injectable, Optional } from '@nestjs/common';
import { ActionException } from '../contract/action.exception';
import { ActionMetrics } from '../telemetry/metrics/action-metrics';
import { noteUserLevel } from '../telemetry/request-scope';
import { ActionCall } from './action-call';
import { ChainGuard } from './chain.guard';
import { UploadBodyGuard } from './upload-body.guard';
import { checkSession, SessionVerifier } from './verified-user';
import { refuseInvalidToken, refuseUnverified } from './verified-user.refusals';
import { replyOf } from './http-args';

/**
 * The request's context, after the origin check and the rate limits: an upload's body is read
 * (UploadBodyGuard), then a session token that proves nothing (401), the body shape, user
 * address and chains (a malformed one is a 400), anonymous calls to actions that need the user
 * are refused, the chains must be served (ChainGuard), then the session's demands: a verified
 * user where declared (401) and the claimed user being the verified one (403); see
 * verified-user.refusals.ts. One global guard runs
 * the steps in that order: each global guard costs every request of every action a turn of
 * Nest's guard loop.
 */
@Injectable()
export class UserContextGuard implements CanActivate {
  constructor(
    private readonly upload: UploadBodyGuard,
    private readonly chain: ChainGuard,
    @Optional() private readonly sessions?: SessionVerifier,
    @Optional() private readonly metrics?: ActionMetrics,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const call = ActionCall.of(context);
    if (!call) return true;
    // Checked before the rate limits for a POST (KitModule's hook); here for anything else.
    const session = checkSession(call.req, this.sessions);
    if (!call.awaitsUpload && !session) return this.check(call, context);
    return Promise.all([session, call.awaitsUpload && this.upload.canActivate(context)]).then(() =>
      this.check(call, context),
    );
  }

  private check(call: ActionCall, context: ExecutionContext): boolean {
    const reply = replyOf(context);
    refuseInvalidToken(call, reply);
    if (call.declaration.requiresUser && !call.context.userAddress) {
      throw new ActionException(HttpStatus.BAD_REQUEST, 'x-user-address header is required', {
        message: 'Connect a wallet to run this action',
        data: { invalidParams: ['userAddress'] },
        code: 'VALIDATION_ERROR',
      });
    }
    // The chains before the session: a request for a chain the action does not serve is a 400
    // whoever sends it.
    this.chain.canActivate(context);
    refuseUnverified(call, reply);
    const level = call.userLevel;
    if (level) {
      noteUserLevel(call.req, level);
      this.metrics?.userRequest(call.declaration.path, level);
    }
    return true;
  }
}
