import { type JsonSchema, ref } from './json-schema';

const object = (
  properties: Record<string, JsonSchema>,
  required: string[],
  description?: string,
): JsonSchema => ({
  type: 'object',
  ...(description !== undefined && { description }),
  properties,
  required,
});

const text: JsonSchema = { type: 'string' };
const integer: JsonSchema = { type: 'integer' };

/** The answers and documents every action shares, as docs/requests-and-responses.md has them. */
export const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  ResponseMetadata: object(
    {
      timestamp: { type: 'integer', description: 'Milliseconds since the epoch' },
      requestId: { type: 'string', description: 'Also in the x-request-id header' },
      executionTime: { type: 'number', description: 'Milliseconds spent serving the request' },
    },
    ['timestamp', 'requestId'],
    'Timing and tracing facts; an action may add keys of its own (such as `cached`).',
  ),
  DataEnvelope: object(
    {
      success: { const: true },
      data: { description: 'What the action answers (bigint and Date values as text)' },
      message: text,
      statusCode: integer,
      metadata: ref('ResponseMetadata'),
    },
    ['success', 'statusCode', 'metadata'],
    'A data-mode answer.',
  ),
  DataError: object(
    {
      success: { const: false },
      error: { type: 'string', description: 'For developers; validation errors list each problem' },
      message: { type: 'string', description: 'For the user' },
      statusCode: integer,
      data: {
        type: 'object',
        description: 'Context when there is some',
        properties: {
          invalidParams: { type: 'array', items: text },
          code: text,
        },
      },
      metadata: ref('ResponseMetadata'),
    },
    ['success', 'error', 'message', 'statusCode', 'metadata'],
    'An error in data mode, and outside any action.',
  ),
  ExecutionResponse: object(
    {
      serializedTransaction: { type: 'string', pattern: '^0x[0-9a-fA-F]*$' },
      chainId: integer,
      abi: { type: 'array', items: {} },
      params: object({ functionName: text, args: { type: 'object' } }, ['functionName', 'args']),
      crossChain: object(
        {
          destinationChainId: integer,
          destinationGasLimit: { type: ['integer', 'string'] },
          destinationRecipient: text,
          estimatedBridgeFee: text,
          destinationOperation: {},
        },
        ['destinationChainId'],
        'Present for an action that declares a destination chain',
      ),
    },
    ['serializedTransaction', 'chainId'],
    'A transaction-mode answer: the unsigned transaction the user signs.',
  ),
  TransactionError: object(
    {
      error: text,
      code: { type: 'string', examples: ['VALIDATION_ERROR', 'RATE_LIMITED', 'UPSTREAM_ERROR'] },
      message: { type: 'string', description: 'User-readable text, when the action gave one' },
      data: { description: 'Context the action gave, such as `{invalidParams}`' },
      details: { type: 'string', description: 'The internal failure text, in development only' },
    },
    ['error', 'code'],
    'An error in transaction mode.',
  ),
  ActionParameter: {
    type: 'object',
    required: ['name', 'type', 'label'],
    properties: { name: text, type: text, label: text, required: { type: 'boolean' } },
    additionalProperties: true,
  },
  DynamicAction: object(
    {
      type: { const: 'dynamic' },
      label: text,
      description: text,
      chains: object({ source: integer, destination: integer }, ['source']),
      path: text,
      params: { type: 'array', items: ref('ActionParameter') },
      responseType: { const: 'data' },
    },
    ['type', 'label', 'chains', 'path'],
  ),
  ChainAction: {
    type: 'object',
    description:
      'A `blockchain` (contract call) or `transfer` (native coin) action: the client builds and sends it, no route here.',
    required: ['type', 'label', 'chains'],
    properties: {
      type: { enum: ['blockchain', 'transfer'] },
      label: text,
      description: text,
      chains: object({ source: integer, destination: integer }, ['source']),
    },
    additionalProperties: true,
  },
  MiniAppMetadata: object(
    {
      url: { type: 'string', format: 'uri' },
      icon: { type: 'string', format: 'uri' },
      title: text,
      description: text,
      baseUrl: { type: 'string', format: 'uri' },
      actions: {
        type: 'array',
        items: { anyOf: [ref('DynamicAction'), ref('ChainAction')] },
        minItems: 1,
        maxItems: 4,
      },
    },
    ['url', 'icon', 'title', 'description', 'baseUrl', 'actions'],
    'A mini-app document, what the platform registers by its url.',
  ),
  MiniAppIndex: object(
    {
      title: text,
      description: text,
      baseUrl: { type: 'string', format: 'uri' },
      miniApps: {
        type: 'array',
        items: object(
          {
            id: text,
            title: text,
            description: text,
            icon: text,
            metadataUrl: { type: 'string', format: 'uri' },
            actionPaths: { type: 'array', items: text },
          },
          ['id', 'title', 'description', 'icon', 'metadataUrl', 'actionPaths'],
        ),
      },
    },
    ['title', 'description', 'baseUrl', 'miniApps'],
    'What the service hosts (not a platform document itself).',
  ),
  Readiness: object(
    {
      status: { enum: ['ok', 'degraded'] },
      dependencies: {
        type: 'object',
        additionalProperties: object(
          { status: { enum: ['up', 'down'] }, required: { type: 'boolean' } },
          ['status', 'required'],
        ),
      },
    },
    ['status', 'dependencies'],
  ),
};
