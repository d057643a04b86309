import {
  ActionContext,
  ActionController,
  ActionParams,
  type ActionResult,
  type ContextOf,
  RunAction,
} from '../../kit';
import { portfolioAction, PortfolioParams } from './portfolio.action';
import { type Portfolio, PortfolioService } from './portfolio.service';

@ActionController(portfolioAction)
export class PortfolioController {
  constructor(private readonly portfolio: PortfolioService) {}

  /** The user-address guard has refused anonymous calls, so `userAddress` is set here. */
  @RunAction()
  run(
    @ActionParams() { timeframe }: PortfolioParams,
    @ActionContext() context: ContextOf<typeof portfolioAction>,
  ): Promise<ActionResult<Portfolio>> {
    return this.portfolio.analyse(context.userAddress, timeframe, context);
  }
}
