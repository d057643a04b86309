import {
  ActionContext,
  ActionController,
  ActionParams,
  type ActionResult,
  type ContextOf,
  RunAction,
} from '../../kit';
import { swapQuoteAction, SwapQuoteParams } from './swap-quote.action';
import { type SwapQuote, SwapQuoteService } from './swap-quote.service';

@ActionController(swapQuoteAction)
export class SwapQuoteController {
  constructor(private readonly swapQuote: SwapQuoteService) {}

  @RunAction()
  run(
    @ActionParams() params: SwapQuoteParams,
    @ActionContext() context: ContextOf<typeof swapQuoteAction>,
  ): Promise<ActionResult<SwapQuote>> {
    return this.swapQuote.quote(params, context);
  }
}
