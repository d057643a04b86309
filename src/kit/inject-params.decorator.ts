import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RequestContext } from '../contract/action.types';
import { ActionCall } from './action-call';

function callOf(ctx: ExecutionContext): ActionCall {
  const call = ActionCall.of(ctx);
  if (!call) throw new Error(`${ctx.getClass().name} is not an @ActionController`);
  return call;
}

/** The action's parameters, converted and validated from its declaration's params class. */
export const ActionParams = createParamDecorator((_: unknown, ctx: ExecutionContext): object =>
  callOf(ctx).params(),
);

/** Who runs the action and on which chain. */
export const ActionContext = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): RequestContext => callOf(ctx).context,
);
