import { Injectable } from '@nestjs/common';
import type {
  OperationObject,
  PathsObject,
  ResponseObject,
  SchemaObject,
  TagObject,
} from '@nestjs/swagger';
import { SIGN_IN_PATH } from '../kit/verified-user';
import { OpenApiExtension } from '../publishing/openapi/openapi-extension';
import { MCP_PATH } from './mcp.route';

const TAG = 'MCP';

const rpc = (description: string): ResponseObject => ({
  description,
  content: {
    'application/json': { schema: { $ref: '#/components/schemas/JsonRpcMessage' } },
    'text/event-stream': { schema: { type: 'string' } },
  },
});

/**
 * The MCP endpoint in the OpenAPI document (src/publishing assembles it): one JSON-RPC route,
 * described as a route, not tool by tool. Its tools are the actions' own paths, listed by
 * `tools/list` with the same rules (docs/agents.md).
 */
@Injectable()
export class McpOpenApi extends OpenApiExtension {
  readonly tag: TagObject = {
    name: TAG,
    description:
      'Every action as a tool of the Model Context Protocol (Streamable HTTP, stateless): tools/list, then tools/call (docs/agents.md)',
  };

  paths(): PathsObject {
    const post: OperationObject = {
      operationId: 'mcp.message',
      summary: 'One JSON-RPC message of the Model Context Protocol',
      description: `Accept must name both application/json and text/event-stream. A bearer session token (POST ${SIGN_IN_PATH}) signs in the calls of tools whose action asks for a verified user.`,
      tags: [TAG],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/JsonRpcMessage' } },
        },
      },
      responses: {
        200: rpc('The answer: a JSON-RPC result, or a JSON-RPC error'),
        202: { description: 'A notification, accepted (no answer)' },
        400: rpc("Not a JSON-RPC message, or a batch over the SDK's bound"),
        403: rpc('An Origin the service does not allow'),
        406: rpc('Accept does not name both application/json and text/event-stream'),
        413: { description: 'The body is over the limit' },
        415: rpc('Content-Type is not application/json'),
      },
    };
    const get: OperationObject = {
      operationId: 'mcp.get',
      summary: 'Stateless: no stream to open and no session to end',
      tags: [TAG],
      responses: { 405: rpc('Method not allowed: POST a JSON-RPC message') },
    };
    return { [MCP_PATH]: { post, get } };
  }

  schemas(): Record<string, SchemaObject> {
    return {
      JsonRpcMessage: {
        type: 'object',
        description: 'A JSON-RPC 2.0 request, notification or answer',
        required: ['jsonrpc'],
        properties: {
          jsonrpc: { type: 'string', enum: ['2.0'] },
          id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          method: { type: 'string', example: 'tools/call' },
          params: { type: 'object' },
          result: { type: 'object' },
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { type: 'integer' }, message: { type: 'string' } },
          },
        },
      },
    };
  }
}
