import { HttpStatus } from '@nestjs/common';
import { ActionException } from '../contract/action.exception';
import {
  type IntentStatus,
  SETTLED_STATUSES,
  type SettledStatus,
  type TransactionIntent,
} from './outcome.types';

export const isSettled = (status: IntentStatus): status is SettledStatus =>
  (SETTLED_STATUSES as readonly string[]).includes(status);

/** Another hash for an intent that has settled: a 409. */
export function refuseSettled(intent: TransactionIntent): void {
  if (!isSettled(intent.status)) return;
  throw new ActionException(
    HttpStatus.CONFLICT,
    'The intent has settled with another transaction',
    {
      message: `This transaction intent is already ${intent.status} with another hash`,
      data: { code: 'INTENT_SETTLED' },
      code: 'INTENT_SETTLED',
    },
  );
}

/** A hash of another sender, or another call at another nonce: a 422, the intent stays open. */
export function mismatch(): ActionException {
  return new ActionException(
    HttpStatus.UNPROCESSABLE_ENTITY,
    'The transaction is not the answered one',
    {
      message:
        'This hash names a transaction of another sender, or another call at another nonce, than the answered one: the intent stays open',
      data: { code: 'HASH_MISMATCH' },
      code: 'HASH_MISMATCH',
    },
  );
}
