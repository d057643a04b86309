import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { ActionException } from '../contract/action.exception';
import { ActionCall } from './action-call';
import { ChainGuard } from './chain.guard';
import { UploadBodyGuard } from './upload-body.guard';

/**
 * The request's context, after the origin check and the rate limits: an upload's body is read
 * (UploadBodyGuard), then the body shape, user address and chains (a malformed one is a 400),
 * anonymous calls to actions that need the user are refused, and the chains must be served
 * (ChainGuard). One global guard runs the three steps in that order: each global guard costs
 * every request of every action a turn of Nest's guard loop.
 */
@Injectable()
export class UserContextGuard implements CanActivate {
  constructor(
    private readonly upload: UploadBodyGuard,
    private readonly chain: ChainGuard,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const call = ActionCall.of(context);
    if (!call) return true;
    if (!call.awaitsUpload) return this.check(call, context);
    return Promise.resolve(this.upload.canActivate(context)).then(() => this.check(call, context));
  }

  private check(call: ActionCall, context: ExecutionContext): boolean {
    if (call.declaration.requiresUser && !call.context.userAddress) {
      throw new ActionException(HttpStatus.BAD_REQUEST, 'x-user-address header is required', {
        message: 'Connect a wallet to run this action',
        data: { invalidParams: ['userAddress'] },
        code: 'VALIDATION_ERROR',
      });
    }
    return this.chain.canActivate(context);
  }
}
