import {
  ActionContext,
  ActionController,
  ActionParams,
  type ExecutionResponse,
  type RequestContext,
  RunAction,
} from '../../core';
import { bestSwapAction, BestSwapParams } from './best-swap.action';
import { BestSwapService } from './best-swap.service';

@ActionController(bestSwapAction)
export class BestSwapController {
  constructor(private readonly bestSwap: BestSwapService) {}

  @RunAction()
  run(
    @ActionParams() params: BestSwapParams,
    @ActionContext() context: RequestContext,
  ): Promise<ExecutionResponse> {
    return this.bestSwap.build(params, context);
  }
}
