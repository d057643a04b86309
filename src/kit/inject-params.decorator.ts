import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ACTION_KEY } from './action.decorator';
import type { ActionDeclaration, RequestContext } from '../contract/action.types';
import { buildParams } from './params-builder';
import { readActionRequest } from './action-request';

const reflector = new Reflector();

function declarationOf(ctx: ExecutionContext): ActionDeclaration {
  const declaration = reflector.get<ActionDeclaration | undefined>(ACTION_KEY, ctx.getClass());
  if (!declaration) throw new Error(`${ctx.getClass().name} is not an @ActionController`);
  return declaration;
}

/** The action's parameters, converted and validated from its declaration's params class. */
export const ActionParams = createParamDecorator((_: unknown, ctx: ExecutionContext): object =>
  buildParams(
    declarationOf(ctx),
    readActionRequest(ctx.switchToHttp().getRequest<FastifyRequest>()),
  ),
);

/** Who runs the action and on which chain. */
export const ActionContext = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): RequestContext =>
    readActionRequest(ctx.switchToHttp().getRequest<FastifyRequest>()).context,
);
