import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ACTION_KEY } from './action.decorator';
import type { ActionDeclaration } from '../contract/action.types';
import { ActionException } from '../contract/action.exception';
import { readActionRequest } from './action-request';

/**
 * Reads every action request's body shape, user address and chains before anything else uses
 * them (a malformed one is a 400), and refuses anonymous calls to actions that need the user.
 */
@Injectable()
export class UserContextGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const declaration = this.reflector.get<ActionDeclaration | undefined>(
      ACTION_KEY,
      context.getClass(),
    );
    if (!declaration) return true;
    const { context: user } = readActionRequest(
      context.switchToHttp().getRequest<FastifyRequest>(),
    );
    if (declaration.requiresUser && !user.userAddress) {
      throw new ActionException(HttpStatus.BAD_REQUEST, 'x-user-address header is required', {
        message: 'Connect a wallet to run this action',
        data: { invalidParams: ['userAddress'] },
        code: 'VALIDATION_ERROR',
      });
    }
    return true;
  }
}
