import {
  ActionContext,
  ActionController,
  ActionParams,
  type ExecutionResponse,
  type ContextOf,
  RunAction,
} from '../../kit';
import { bestSwapAction, BestSwapParams } from './best-swap.action';
import { BestSwapService } from './best-swap.service';

@ActionController(bestSwapAction)
export class BestSwapController {
  constructor(private readonly bestSwap: BestSwapService) {}

  @RunAction()
  run(
    @ActionParams() params: BestSwapParams,
    @ActionContext() context: ContextOf<typeof bestSwapAction>,
  ): Promise<ExecutionResponse> {
    return this.bestSwap.build(params, context);
  }
}
