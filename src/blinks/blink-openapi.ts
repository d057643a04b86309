import { Injectable } from '@nestjs/common';
import type {
  OperationObject,
  ParameterObject,
  PathsObject,
  ResponseObject,
  SchemaObject,
  TagObject,
} from '@nestjs/swagger';
import { asSchema, type JsonSchema, ref } from '../publishing/openapi/json-schema';
import { OpenApiExtension } from '../publishing/openapi/openapi-extension';
import { BlinkCatalogue, BLINKS_ROUTE } from './blink-catalogue';
import { ACTION_VERSION } from './blink-headers';
import { BLINK_SCHEMAS } from './blink-openapi.schemas';

const TAG = 'Blinks';
const json = (description: string, schema: JsonSchema): ResponseObject => ({
  description,
  content: { 'application/json': { schema: asSchema(schema) } },
  headers: {
    'X-Action-Version': { schema: { type: 'string', example: ACTION_VERSION } },
    'X-Blockchain-Ids': { schema: { type: 'string', example: 'eip155:43113' } },
  },
});
const ERRORS: OperationObject['responses'] = {
  400: json('A malformed account, signature, body or value', ref('BlinkError')),
  401: json(
    'A verified action’s blink without a session that holds, or a refused sign-in',
    ref('BlinkError'),
  ),
  403: json('The session or sign-in is another account’s', ref('BlinkError')),
  404: json('No action is served as this blink', ref('BlinkError')),
  422: json(
    'The action cannot run as a blink (a file parameter), or a hash is not its transaction',
    ref('BlinkError'),
  ),
  429: json('A rate limit of the action is reached (see Retry-After)', ref('BlinkError')),
  503: json('A service the action needs is out', ref('BlinkError')),
};
const path = (name: string, description: string, pattern?: string): ParameterObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: pattern === undefined ? { type: 'string' } : { type: 'string', pattern },
});
const account = (signature: boolean): OperationObject['requestBody'] => ({
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: signature ? ['account', 'signature'] : ['account'],
        properties: {
          account: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
          ...(signature
            ? { signature: { type: 'string', description: 'The mined transaction’s hash' } }
            : { data: { type: 'object', description: 'Parameter values not in the href' } }),
        },
      },
    },
  },
});

const SIGNED_IN_BODY: OperationObject['requestBody'] = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['account', 'signature', 'state'],
        properties: {
          account: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
          signature: { type: 'string', description: 'The wallet’s signature of the message' },
          state: { type: 'string', description: 'The sign-in answer’s state, unchanged' },
          data: { type: 'string', description: 'The sign-in answer’s message, unchanged' },
        },
      },
    },
  },
};

/** The blinks' routes in the OpenAPI document (src/publishing assembles it). */
@Injectable()
export class BlinkOpenApi extends OpenApiExtension {
  readonly tag: TagObject = {
    name: TAG,
    description: `Every action as a blink: the Solana Actions spec ${ACTION_VERSION} on EVM chains (docs/blinks.md)`,
  };

  constructor(private readonly catalogue: BlinkCatalogue) {
    super();
  }

  paths(): PathsObject {
    const name = {
      ...path('name', 'The last segment of the action’s path'),
      schema: { enum: this.catalogue.all().map((b) => b.name) },
    };
    const intent = path('intent', 'The X-Action-Intent of the transaction', '^[A-Za-z0-9_-]{32}$');
    const op = (
      operationId: string,
      summary: string,
      extra: Partial<OperationObject>,
    ): OperationObject => ({ operationId, summary, tags: [TAG], responses: {}, ...extra });
    const chained = (step: string): OperationObject =>
      op(
        `blinks.${step}`,
        `After a transaction is mined: the wallet's hash, and what comes ${step === 'next' ? 'next' : 'of it'}`,
        {
          parameters: [name, intent],
          requestBody: account(true),
          responses: {
            200: json('The next action, or `completed` with the outcome', ref('BlinkAction')),
            ...ERRORS,
          },
        },
      );
    return {
      '/actions.json': {
        get: op('blinks.actionsJson', 'Which paths are blinks (the spec’s actions.json)', {
          responses: { 200: json('The rules', { type: 'object', required: ['rules'] }) },
        }),
      },
      [`${BLINKS_ROUTE}/{name}`]: {
        get: op('blinks.get', 'An action as a blink (ActionGetResponse)', {
          parameters: [name],
          responses: { 200: json('The blink', ref('BlinkAction')), 404: ERRORS[404] },
        }),
        post: op(
          'blinks.post',
          'Runs the action for `account`: its transaction, or a data action’s result',
          {
            parameters: [name],
            requestBody: account(false),
            responses: {
              200: json('A `transaction` (or `post`) answer', ref('BlinkPostResponse')),
              ...ERRORS,
            },
          },
        ),
      },
      [`${BLINKS_ROUTE}/{name}/sign-in`]: {
        post: op(
          'blinks.signIn',
          'A verified action’s sign-in: the EIP-4361 message for `account` to sign (spec 2.4 `message`)',
          {
            parameters: [name],
            requestBody: account(false),
            responses: {
              200: json('The message and its sealed state', ref('BlinkMessage')),
              ...ERRORS,
            },
          },
        ),
      },
      [`${BLINKS_ROUTE}/{name}/signed-in`]: {
        post: op(
          'blinks.signedIn',
          'The signed message exchanged for a session (as POST /api/auth/siwe): the action, usable',
          {
            parameters: [name],
            requestBody: SIGNED_IN_BODY,
            responses: {
              200: json('The action, its session as its first field', ref('BlinkAction')),
              ...ERRORS,
            },
          },
        ),
      },
      [`${BLINKS_ROUTE}/{name}/next/{intent}`]: { post: chained('next') },
      [`${BLINKS_ROUTE}/{name}/completed/{intent}`]: { post: chained('completed') },
    };
  }

  schemas(): Record<string, SchemaObject> {
    return Object.fromEntries(
      Object.entries(BLINK_SCHEMAS).map(([name, schema]) => [name, asSchema(schema)]),
    );
  }
}
