import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { ActionException } from '../contract/action.exception';
import { ActionCall } from './action-call';

/**
 * Reads every action request's body shape, user address and chains before anything else uses
 * them (a malformed one is a 400), and refuses anonymous calls to actions that need the user.
 */
@Injectable()
export class UserContextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const call = ActionCall.of(context);
    if (!call) return true;
    if (call.declaration.requiresUser && !call.context.userAddress) {
      throw new ActionException(HttpStatus.BAD_REQUEST, 'x-user-address header is required', {
        message: 'Connect a wallet to run this action',
        data: { invalidParams: ['userAddress'] },
        code: 'VALIDATION_ERROR',
      });
    }
    return true;
  }
}
