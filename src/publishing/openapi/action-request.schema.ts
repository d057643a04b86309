import type { ExamplesObject, ParameterObject, RequestBodyObject } from '@nestjs/swagger';
import type { ActionDeclaration, ActionParameter, ActionSample } from '../../contract/action.types';
import { isUploadType } from '../../kit/params';
import { jsonSafe } from '../../contract/json-safe';
import { asSchema, type JsonSchema, ref } from './json-schema';
import { paramSchema } from './param-schema';

const ADDRESS: JsonSchema = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' };
const CHAIN: JsonSchema = {
  type: ['integer', 'string'],
  description: 'A chain id, or a name the platform uses (`fuji`, `Avalanche Fuji`)',
};

const header = (name: string, description: string, schema: JsonSchema): ParameterObject => ({
  name,
  in: 'header',
  description,
  schema: asSchema(schema),
});

/**
 * The context headers, read before the query and the body's `context` (docs/requests-and-responses.md).
 * The user header is never `required` in the document, even for an action that needs a user: the
 * body's `context.userAddress` (which the samples carry) is as good, and /docs would otherwise
 * refuse to Execute, highlighting an empty field far above the button. The first sample's user is
 * its example, which /docs pre-fills.
 */
function contextHeaders(declaration: ActionDeclaration): ParameterObject[] {
  const { source, destination } = declaration.chains;
  const sampleUser = declaration.samples?.find((s) => s.userAddress)?.userAddress;
  const user = header(
    'x-user-address',
    declaration.requiresUser
      ? 'The acting user: this action needs one, here or as x-wallet-address, query userAddress or body context.userAddress'
      : 'The acting user, if any',
    ADDRESS,
  );
  return [
    declaration.requiresUser && sampleUser !== undefined ? { ...user, example: sampleUser } : user,
    header('x-wallet-address', 'The acting user, when x-user-address is absent', ADDRESS),
    header('x-source-chain', `The chain to act on; this action runs on ${source}`, CHAIN),
    header('x-chain-id', 'The chain to act on, when x-source-chain is absent', CHAIN),
    header(
      'x-destination-chain',
      destination === undefined
        ? 'The destination chain of a cross-chain action'
        : `The destination chain; this action continues on ${destination}`,
      CHAIN,
    ),
    header('x-request-id', 'Reused as the request id: 1 to 128 of `A-Za-z0-9_.:-`', {
      type: 'string',
      pattern: '^[\\w.:-]{1,128}$',
    }),
  ];
}

/** The query alternative: each parameter (the body wins), then the context. */
function queryParameters(params: readonly ActionParameter[]): ParameterObject[] {
  const declared = params.filter((param) => !isUploadType(param.type));
  const names = new Set(declared.map((param) => param.name));
  const context: [string, JsonSchema][] = [
    ['userAddress', ADDRESS],
    ['chainId', CHAIN],
    ['chain', CHAIN],
    ['destinationChain', CHAIN],
  ];
  return [
    ...declared.map((param) => ({
      name: param.name,
      in: 'query' as const,
      description: `${param.label}: read from the query when the body does not carry it`,
      schema: asSchema(paramSchema(param)),
    })),
    ...context
      .filter(([name]) => !names.has(name))
      .map(([name, schema]) => ({
        name,
        in: 'query' as const,
        description: 'Context, after the headers',
        schema: asSchema(schema),
      })),
  ];
}

export function actionParameters(
  declaration: ActionDeclaration,
  params: readonly ActionParameter[],
): ParameterObject[] {
  return [...queryParameters(params), ...contextHeaders(declaration)];
}

/** A sample as a request body: its params, and its user and chain as the body's `context`. */
function sampleBody(sample: ActionSample): unknown {
  const context = {
    ...(sample.userAddress !== undefined && { userAddress: sample.userAddress }),
    ...(sample.chainId !== undefined && { sourceChain: sample.chainId }),
  };
  return jsonSafe({ params: sample.params, ...(Object.keys(context).length > 0 && { context }) });
}

const CONTEXT: JsonSchema = {
  type: 'object',
  description: 'Context, after the headers and the query',
  properties: { userAddress: ADDRESS, sourceChain: CHAIN, destinationChain: CHAIN },
};

/** `{params, context?}`, or the parameters as the body itself; multipart when it takes files. */
export function actionRequestBody(
  declaration: ActionDeclaration,
  params: readonly ActionParameter[],
  paramsRef: string,
): RequestBodyObject {
  const samples = declaration.samples ?? [];
  const examples: ExamplesObject = Object.fromEntries(
    samples.map((sample, i) => [`sample-${i + 1}`, { value: sampleBody(sample) }]),
  );
  if (params.some((param) => isUploadType(param.type))) {
    const form = ref(paramsRef);
    const schema: JsonSchema = {
      allOf: [form],
      properties: { _sdk_context: { type: 'string', description: 'The context, as JSON text' } },
    };
    // A sample names no file: its fields are the form's text parts, the files are the caller's.
    const fields: ExamplesObject = Object.fromEntries(
      samples.map((sample, i) => [`sample-${i + 1}`, { value: jsonSafe(sample.params) }]),
    );
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: asSchema(schema),
          ...(samples.length > 0 && { examples: fields }),
        },
      },
    };
  }
  const wrapped: JsonSchema = {
    type: 'object',
    title: 'params object',
    properties: { params: ref(paramsRef), context: CONTEXT },
    required: ['params'],
  };
  const flat: JsonSchema = { ...ref(paramsRef), title: 'flat body' };
  return {
    required: false,
    description: 'May be empty: the query string then carries the parameters',
    content: {
      'application/json': {
        schema: asSchema({ anyOf: [wrapped, flat] }),
        ...(samples.length > 0 && { examples }),
      },
    },
  };
}
