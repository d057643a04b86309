import { ActionParam, defineAction } from '../../kit';
import { ACCOUNT_MINI_APP } from '../mini-apps';

/** The most a listing answers: the intent store keeps RECENT_PER_USER per user. */
export const MAX_LISTED = 50;

export class MyTransactionsParams {
  @ActionParam({
    type: 'number',
    label: 'How many',
    required: false,
    min: 1,
    max: MAX_LISTED,
    step: 1,
    placeholder: '10',
  })
  limit?: number;
}

export const myTransactionsAction = defineAction({
  label: 'My transactions',
  description: 'The transactions this service prepared for you, newest first, with their status',
  docs: [
    'The signed-in user’s recent transaction answers (intents), newest first: `data.transactions`,',
    'each with `intent`, `action`, `chainId`, `status`, `hash` and `blockNumber` once seen, and',
    '`updatedAt`. At most `limit` (default 10, at most 50); never another user’s.',
    '',
    '**Needs a verified user** (docs/verified-users.md): sign in with Ethereum and send the token',
    'as `Authorization: Bearer <token>`. Without one: 401 `UNVERIFIED_USER`; with a token for',
    'another address than `x-user-address`: 403 `USER_MISMATCH`.',
  ].join('\n'),
  chains: { source: 43113 },
  path: '/api/my-transactions',
  miniApp: ACCOUNT_MINI_APP,
  params: MyTransactionsParams,
  responseType: 'data',
  user: 'verified',
  samples: [{ params: { limit: 5 } }],
});
