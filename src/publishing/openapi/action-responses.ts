import type { HeadersObject, ResponseObject, ResponsesObject } from '@nestjs/swagger';
import type { ActionDeclaration } from '../../contract/action.types';
import { codeFor } from '../../contract/error-mapping';
import { asSchema, type JsonSchema, ref } from './json-schema';

const REQUEST_ID_HEADER: HeadersObject = {
  'x-request-id': { description: 'The request id', schema: { type: 'string' } },
};
const RATE_LIMIT_HEADERS: HeadersObject = {
  'X-RateLimit-Limit': { schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window ends',
    schema: { type: 'integer' },
  },
};

/** A transaction answer's intent: report its hash to /api/transactions/{intent}. */
const INTENT_HEADER: HeadersObject = {
  'X-Action-Intent': {
    description:
      "The intent of this answer: POST the wallet's transaction hash to /api/transactions/{intent}, GET it there for the outcome (absent when no user address was sent)",
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{32}$' },
  },
};

/** A paid call's settlement (x402 v2). */
const PAYMENT_RESPONSE_HEADER: HeadersObject = {
  'PAYMENT-RESPONSE': {
    description:
      'The settlement of the payment, base64 JSON (x402 v2 SettleResponse: transaction, network, payer)',
    schema: { type: 'string' },
  },
};

/** Why each status may answer an action, as docs/requests-and-responses.md describes them. */
const WHY: Record<number, string> = {
  400: 'A parameter, the user address or a chain is invalid, missing or not supported',
  401: 'No valid session token: sign in at POST /api/auth/siwe (see WWW-Authenticate)',
  403: 'The Origin is not on ALLOWED_ORIGINS, or the session does not fit: USER_MISMATCH (another claimed user), SESSION_CHAIN_MISMATCH (signed in on another chain)',
  408: 'The request took longer than REQUEST_TIMEOUT_MS to arrive (always the data envelope)',
  413: 'The body (or an upload) is larger than allowed',
  402: 'A paid action called without a payment, or with one it refuses (x402 v2): PAYMENT-REQUIRED holds the terms (base64 JSON) and the reason',
  409: 'A payment identifier already used by another payment, or by a call still running',
  429: 'A rate limit is reached (see Retry-After)',
  500: 'An unexpected failure (its text is shown only in development)',
  502: 'An external service answered with an error',
  503: 'An external service is busy or unavailable, or the rate-limit store is down',
  504: 'An external service did not answer in time',
};

const json = (schema: JsonSchema): ResponseObject['content'] => ({
  'application/json': { schema: asSchema(schema) },
});

function errorAnswer(status: number, schema: JsonSchema): ResponseObject {
  const headers: HeadersObject =
    status === 402
      ? {
          'PAYMENT-REQUIRED': {
            description:
              'The x402 v2 PaymentRequired object, base64 JSON: accepts (scheme exact, network, asset, amount, payTo), error',
            schema: { type: 'string' },
          },
        }
      : status === 429
        ? { 'Retry-After': { schema: { type: 'integer' } } }
        : status === 401
          ? {
              'WWW-Authenticate': {
                description: 'Bearer, naming the sign-in route',
                schema: { type: 'string' },
              },
            }
          : {};
  return {
    description: `${WHY[status]} (code ${codeFor(status)})`,
    headers: { ...REQUEST_ID_HEADER, ...headers },
    content: json(schema),
  };
}

/** A success's shape: the mode's, with `data` as the declaration's `dataSchema` says. */
function successSchema(declaration: ActionDeclaration): JsonSchema {
  if (declaration.responseType !== 'data') return ref('ExecutionResponse');
  if (declaration.dataSchema === undefined) return ref('DataEnvelope');
  return {
    allOf: [ref('DataEnvelope'), { properties: { data: declaration.dataSchema } }],
  };
}

/** The statuses an action can answer with, each in the shape of its mode. */
export function actionResponses(declaration: ActionDeclaration): ResponsesObject {
  const data = declaration.responseType === 'data';
  const errorShape = ref(data ? 'DataError' : 'TransactionError');
  const statuses = [400, 403, 408, 413, 429, 500, 503];
  if (declaration.callsOutside) statuses.push(502, 504);
  if (declaration.user === 'verified') statuses.push(401);
  if (declaration.price) statuses.push(402, 409, 502);
  const responses: ResponsesObject = {
    200: {
      description: data ? 'The action answered (data mode)' : 'The transaction to sign',
      headers: {
        ...REQUEST_ID_HEADER,
        ...RATE_LIMIT_HEADERS,
        ...(!data && INTENT_HEADER),
        ...(declaration.price && PAYMENT_RESPONSE_HEADER),
      },
      content: json(successSchema(declaration)),
    },
  };
  for (const status of statuses.sort((a, b) => a - b)) {
    // Deadlines are answered before any route runs, so in the data envelope whatever the mode.
    responses[status] = errorAnswer(status, status === 408 ? ref('DataError') : errorShape);
  }
  return responses;
}
