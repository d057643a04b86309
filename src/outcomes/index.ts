/**
 * The outcomes layer's entry, for actions: subscribe to the outcomes of your own transaction
 * answers (docs/transaction-outcomes.md), an action's own webhook (docs/webhooks.md), and the
 * types a hook or an OutcomeSink receives.
 */
export type { ActionWebhook, ActionWebhookTarget } from '../contract/action.types';
export { OnTransactionOutcome, type OutcomeHandler } from './on-transaction-outcome.decorator';
export {
  OUTCOME_SINK,
  SETTLED_STATUSES,
  type IntentStatus,
  type OutcomeSink,
  type SettledStatus,
  type TransactionIntent,
  type TransactionOutcome,
} from './outcome.types';
export { OutcomesModule } from './outcomes.module';
export { INTENT_HEADER } from './intent-recorder';
export { IntentsService } from './intents.service';
export { IntentReports, type Reported } from './intent-reports';
export { type IntentView, view as intentView } from './transactions.controller';
