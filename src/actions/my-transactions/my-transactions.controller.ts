import {
  ActionContext,
  ActionController,
  ActionParams,
  type ActionResult,
  type ContextOf,
  RunAction,
} from '../../kit';
import { IntentsService, type IntentView, intentView } from '../../outcomes';
import { myTransactionsAction, MyTransactionsParams } from './my-transactions.action';

const DEFAULT_LIMIT = 10;

/** The signed-in user's recent intents: the kit has proven who asks (`user: 'verified'`). */
@ActionController(myTransactionsAction)
export class MyTransactionsController {
  constructor(private readonly intents: IntentsService) {}

  @RunAction()
  async run(
    @ActionParams() { limit }: MyTransactionsParams,
    @ActionContext() { userAddress }: ContextOf<typeof myTransactionsAction>,
  ): Promise<ActionResult<{ address: string; transactions: IntentView[] }>> {
    const recent = await this.intents.recentOf(userAddress, limit ?? DEFAULT_LIMIT);
    const transactions = recent.map(intentView);
    return {
      data: { address: userAddress, transactions },
      message:
        transactions.length === 0
          ? 'No transactions yet'
          : `Your ${transactions.length} most recent transaction${transactions.length === 1 ? '' : 's'}`,
    };
  }
}
