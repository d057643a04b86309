import type { ActionDeclaration, ActionParameter } from '../contract/action.types';
import { describeChain } from '../evm/chains/chain-registry';
import { isUploadType } from '../kit/params';
import { INTENT_ID_PATTERN } from '../outcomes/intent-id';
import type { JsonSchema } from '../publishing/openapi/json-schema';
import { mustBeSent, paramSchema } from '../publishing/openapi/param-schema';
import { SHARED_SCHEMAS } from '../publishing/openapi/shared-schemas';
import { TRANSACTION_INTENT_SCHEMA } from '../publishing/openapi/transaction-paths';

/** A JSON Schema object as a tool publishes it (MCP wants `type: 'object'` at the root). */
export type ToolSchema = { type: 'object' } & Record<string, unknown>;

/** The arguments every action's tool takes besides its parameters: who acts, on which chain. */
export const USER_ARGUMENT = 'user';
export const CHAIN_ARGUMENT = 'chain';
export const CONTEXT_ARGUMENTS: readonly string[] = [USER_ARGUMENT, CHAIN_ARGUMENT];

const ADDRESS = '^0x[0-9a-fA-F]{40}$';

/**
 * OpenAPI's extension keys (`x-param-type`, `x-step`…) mean nothing to an MCP client: dropped,
 * at every depth. What they say that matters is in the schema's description already.
 */
function withoutExtensions(schema: JsonSchema): JsonSchema {
  const entries = Object.entries(schema)
    .filter(([key]) => !key.startsWith('x-'))
    .map(([key, value]): [string, unknown] => [
      key,
      key === 'items' || key === 'allOf' || key === 'anyOf'
        ? Array.isArray(value)
          ? value.map((v) => withoutExtensions(v as JsonSchema))
          : withoutExtensions(value as JsonSchema)
        : value,
    ]);
  return Object.fromEntries(entries);
}

/**
 * A `file` or `image` parameter as a tool takes it: the bytes in base64, and optionally the
 * file's name (the type is read from the bytes, as for an upload; a name only picks among types
 * the bytes allow). The route's own limits judge it once decoded: `maxSize`, `accept`, the
 * image's dimensions, UPLOAD_MAX_BYTES.
 */
function fileSchema(param: ActionParameter): Record<string, unknown> {
  const limits = [
    param.accept !== undefined && `of type ${param.accept}`,
    param.maxSize !== undefined && `at most ${param.maxSize} bytes`,
  ].filter(Boolean);
  const file = {
    type: 'object',
    properties: {
      data: {
        type: 'string',
        contentEncoding: 'base64',
        ...(param.accept !== undefined && { contentMediaType: param.accept }),
        description: `The file's bytes in base64${limits.length > 0 ? ` (${limits.join(', ')}, once decoded)` : ''}`,
      },
      name: { type: 'string', maxLength: 255, description: "The file's name (optional)" },
    },
    required: ['data'],
    additionalProperties: false,
  };
  return {
    ...(param.multiple ? { type: 'array', minItems: 1, items: file } : file),
    title: param.label,
    ...(param.description !== undefined && { description: param.description }),
  };
}

/** One parameter's argument: the OpenAPI document's schema of it (the route's rules), or a file's. */
export function argumentSchema(param: ActionParameter): Record<string, unknown> {
  if (isUploadType(param.type)) return fileSchema(param);
  return withoutExtensions(paramSchema(param)) as Record<string, unknown>;
}

/**
 * The tool's input: every parameter a request may set (a `fixed` one is the service's to set,
 * and is left out), required as the route requires it, then `user` and `chain`. Nothing else
 * is accepted: an argument that is none of these is refused by name (mcp-arguments.ts).
 */
export function inputSchema(
  declaration: ActionDeclaration,
  params: readonly ActionParameter[],
): ToolSchema {
  const open = params.filter((param) => param.fixed !== true);
  const needsUser = declaration.requiresUser === true && declaration.user !== 'verified';
  const required = [
    ...open.filter(mustBeSent).map((param) => param.name),
    ...(needsUser ? [USER_ARGUMENT] : []),
  ];
  const user =
    declaration.user === 'verified'
      ? "The acting user's 0x address; the session (the MCP request's bearer token) proves it, and must be for this address when one is given"
      : `The acting user's 0x address: a claim, as the x-user-address header of the HTTP route${needsUser ? ' (this action needs one)' : ''}`;
  return {
    type: 'object',
    properties: {
      ...Object.fromEntries(open.map((param) => [param.name, argumentSchema(param)])),
      [USER_ARGUMENT]: { type: 'string', pattern: ADDRESS, description: user },
      [CHAIN_ARGUMENT]: {
        type: ['integer', 'string'],
        description: `The chain to act on, as the x-source-chain header: an id or a name the platform uses (default: this action's, ${describeChain(declaration.chains.source)})`,
      },
    },
    ...(required.length > 0 && { required }),
    additionalProperties: false,
  };
}

/** What a transaction action's tool answers: the route's ExecutionResponse, its intent, its words. */
function transactionOutput(): ToolSchema {
  const execution = SHARED_SCHEMAS.ExecutionResponse;
  return {
    type: 'object',
    description:
      'The unsigned transaction for the user to sign and send, as the HTTP route answers it, with its intent',
    properties: {
      ...execution.properties,
      // RLP hex, or wagmi JSON text under TX_SERIALIZATION=json.
      serializedTransaction: { type: 'string', minLength: 1 },
      intent: {
        type: 'string',
        pattern: INTENT_ID_PATTERN,
        description:
          'Read what became of the transaction with the transaction_status tool (absent when no user was named)',
      },
      message: { type: 'string', description: 'What the transaction does, in words' },
    },
    required: [...(execution.required ?? []), 'message'],
  };
}

/**
 * A data answer as structured content: `{data, message}`, `data` as the declaration's
 * `dataSchema` says (any JSON when it says nothing: the service promises no more than that).
 */
export function dataOutput(data: JsonSchema | Record<string, unknown> | undefined): ToolSchema {
  return {
    type: 'object',
    properties: {
      data: data ?? { description: 'What the action answers (bigint and Date values as text)' },
      message: { type: 'string', description: 'The answer in words' },
    },
    required: ['data', 'message'],
  };
}

/** The tool's output schema, by the action's mode. */
export function outputSchema(declaration: ActionDeclaration): ToolSchema {
  return declaration.responseType === 'data'
    ? dataOutput(declaration.dataSchema)
    : transactionOutput();
}

/** transaction_status: an intent id in, the intent as the read route shows it out. */
export const STATUS_INPUT: ToolSchema = {
  type: 'object',
  properties: {
    intent: {
      type: 'string',
      pattern: INTENT_ID_PATTERN,
      description: 'The intent a transaction tool answered',
    },
  },
  required: ['intent'],
  additionalProperties: false,
};
export const STATUS_OUTPUT: ToolSchema = dataOutput(TRANSACTION_INTENT_SCHEMA);
