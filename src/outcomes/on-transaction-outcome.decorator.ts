import { SetMetadata } from '@nestjs/common';
import type { ActionDeclaration } from '../contract/action.types';
import { OUTCOME_EVENTS, type OutcomeEvent, type TransactionOutcome } from './outcome.types';

export const OUTCOME_HOOK_KEY = 'outcomes:hook';

/** What a hook method is: told of one settled outcome; a throw (or rejection) is retried. */
export type OutcomeHandler = (outcome: TransactionOutcome) => Promise<void> | void;

export interface OutcomeHookSpec {
  action: ActionDeclaration;
  statuses: readonly OutcomeEvent[];
}

/**
 * Runs the decorated provider method when a transaction answered by `action` settles in one of
 * `statuses`, or is `reorged` after it settled (all five when none are named): at most once per intent and status across
 * replicas, retried with backoff while it throws. The action must be served by the app (boot
 * error otherwise).
 *
 *   @OnTransactionOutcome(sendTokenAction, 'confirmed')
 *   async credit(outcome: TransactionOutcome): Promise<void> { … }
 */
export function OnTransactionOutcome(
  action: ActionDeclaration,
  ...statuses: OutcomeEvent[]
): <H extends OutcomeHandler>(
  target: object,
  key: string | symbol,
  method: TypedPropertyDescriptor<H>,
) => void {
  const spec: OutcomeHookSpec = {
    action,
    statuses: statuses.length > 0 ? statuses : OUTCOME_EVENTS,
  };
  return (target, key, method) => {
    SetMetadata(OUTCOME_HOOK_KEY, spec)(target, key, method);
  };
}
