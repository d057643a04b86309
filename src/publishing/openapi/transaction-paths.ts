import type { OperationObject, ParameterObject, PathsObject } from '@nestjs/swagger';
import { SETTLED_STATUSES } from '../../outcomes';
import { asSchema, type JsonSchema, ref } from './json-schema';

const TAGS = ['Service'];
const ERRORS = {
  400: 'A malformed intent id (or hash): code INVALID_INTENT, INVALID_HASH',
  403: 'The Origin is not on ALLOWED_ORIGINS',
  404: 'No intent has this id (or it expired from the store): code INTENT_NOT_FOUND',
  429: 'A rate limit is reached (see Retry-After)',
  503: 'Where intents are kept (Redis) is out, or the chain node is: code SERVICE_UNAVAILABLE, RPC_ERROR',
} as const;

/** What both routes answer in `data` (docs/transaction-outcomes.md). */
export const TRANSACTION_INTENT_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'A transaction answer and what became of it',
  properties: {
    intent: { type: 'string', description: 'The X-Action-Intent of the answer' },
    action: { type: 'string', description: 'The path of the action that answered' },
    chainId: { type: 'integer' },
    status: { enum: ['answered', 'submitted', ...SETTLED_STATUSES] },
    hash: { type: 'string', pattern: '^0x[0-9a-f]{64}$' },
    blockNumber: { type: 'string', pattern: '^[0-9]+$', description: 'Decimal text' },
    updatedAt: { type: 'integer', description: 'Milliseconds since the epoch' },
  },
  required: ['intent', 'action', 'chainId', 'status', 'updatedAt'],
};

const envelope: JsonSchema = {
  allOf: [ref('DataEnvelope'), { properties: { data: ref('TransactionIntent') } }],
};

const intentParameter: ParameterObject = {
  name: 'intent',
  in: 'path',
  required: true,
  description: 'The X-Action-Intent header of a transaction answer',
  schema: asSchema({ type: 'string', pattern: '^[A-Za-z0-9_-]{32}$' }),
};

function operation(
  operationId: string,
  summary: string,
  description: string,
  statuses: (keyof typeof ERRORS | 409 | 422)[],
  extra: Partial<OperationObject> = {},
): OperationObject {
  const responses: OperationObject['responses'] = {
    200: {
      description: 'The intent as it stands',
      content: { 'application/json': { schema: asSchema(envelope) } },
    },
  };
  for (const status of statuses) {
    responses[status] = {
      description:
        status === 409
          ? 'The intent settled with another hash: code INTENT_SETTLED'
          : status === 422
            ? 'The hash names a transaction of another sender, or another call at another nonce: code HASH_MISMATCH (the intent stays open)'
            : ERRORS[status],
      content: { 'application/json': { schema: asSchema(ref('DataError')) } },
    };
  }
  return {
    operationId,
    summary,
    description,
    tags: TAGS,
    parameters: [intentParameter],
    ...extra,
    responses,
  };
}

/** The report and read routes of transaction outcomes (src/outcomes). */
export function transactionPaths(): PathsObject {
  return {
    '/api/transactions/{intent}': {
      post: operation(
        'transactions.report',
        "Report the wallet's transaction hash for a transaction answer",
        "A hint: the chain follower settles intents without any report. The service looks the hash up once and, when it is the answered call (sender, to, data, value) or a replacement at the answer's nonce, marks the intent submitted; it never settles it. Reporting the same hash again is idempotent.",
        [400, 403, 404, 409, 422, 429, 503],
        {
          requestBody: {
            required: false,
            description: 'The hash; the `hash` query parameter is also read',
            content: {
              'application/json': {
                schema: asSchema({
                  type: 'object',
                  properties: { hash: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } },
                  required: ['hash'],
                }),
              },
            },
          },
        },
      ),
      get: operation(
        'transactions.read',
        'What became of a transaction answer',
        'answered → submitted → confirmed | reverted | replaced | expired',
        [400, 403, 404, 429, 503],
      ),
    },
  };
}
