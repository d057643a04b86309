import { Injectable, Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import { BlinkDispatch } from '../blinks/blink-dispatch';
import { isIntentId } from '../outcomes/intent-id';
import { TRANSACTIONS_PATH } from '../outcomes/transactions.controller';
import { ArgumentRefusal, routeRequest } from './mcp-arguments';
import { dataResult, toolError, transactionResult } from './mcp-results';
import { McpTools, STATUS_TOOL } from './mcp-tools';
import { mcpSdk } from './mcp-sdk';

/**
 * Headers of the MCP request passed on to the route a tool runs, so its guards judge them as on
 * a direct call: the bearer token (a verified action's session). A guard a later layer adds to
 * the routes (a payment's) reads its own header here: add it to this list, nothing else.
 */
export const FORWARDED_HEADERS: readonly string[] = ['authorization'];

const forwarded = (req: FastifyRequest): Record<string, string> =>
  Object.fromEntries(
    FORWARDED_HEADERS.flatMap((name) => {
      const value = req.headers[name];
      return typeof value === 'string' ? [[name, value]] : [];
    }),
  );

/**
 * Runs a tool call through the service's own route, in-process (BlinkDispatch, as a blink's POST
 * runs), as the MCP client's request: its IP, Origin, Host, request id and bearer token. The
 * route's origin check, rate limits (per IP and per user), upload bounds, validation, session,
 * handler, builder, simulation, intent and logs and metrics all apply; none is repeated here,
 * only the request's shape and the answer's differ.
 */
@Injectable()
export class McpCalls {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly tools: McpTools,
    private readonly dispatch: BlinkDispatch,
  ) {}

  async call(req: FastifyRequest, name: string, args: unknown): Promise<CallToolResult> {
    if (name === STATUS_TOOL) return this.status(req, args);
    const action = this.tools.action(name);
    // An unknown tool is a protocol error (-32602), not a tool's refusal.
    if (!action) {
      const { McpError, ErrorCode } = mcpSdk().types;
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 64)}`);
    }
    let request;
    try {
      request = await routeRequest(action, args);
    } catch (error) {
      if (!(error instanceof ArgumentRefusal)) throw error;
      return toolError(error.message, { status: 400, code: 'VALIDATION_ERROR' });
    }
    const { declaration } = action;
    const dispatched = await this.dispatch.post(
      req,
      declaration.path,
      { contentType: request.contentType, body: request.payload },
      { asClient: true, headers: { ...forwarded(req), ...request.headers } },
    );
    if (declaration.responseType !== 'data') return transactionResult(declaration, dispatched);
    const result = dataResult(dispatched);
    const problem = result.isError ? undefined : action.outputProblem(result.structuredContent);
    if (problem === undefined) return result;
    // The action broke its own declared schema: said to the operator, never passed on broken.
    this.logger.error(`${declaration.path} answered data its dataSchema refuses: ${problem}`);
    return toolError('The action answered data that does not match its declared schema', {
      status: 500,
      code: 'INTERNAL_ERROR',
    });
  }

  /** transaction_status: `GET /api/transactions/<intent>`, as the client would read it. */
  private async status(req: FastifyRequest, args: unknown): Promise<CallToolResult> {
    const { intent } = (args ?? {}) as { intent?: unknown };
    if (!isIntentId(intent)) {
      return toolError(
        'intent must be the intent a transaction tool answered (32 characters of A-Z, a-z, 0-9, _ and -)',
        { status: 400, code: 'INVALID_INTENT' },
      );
    }
    const url = `${TRANSACTIONS_PATH}/${intent}`;
    return dataResult(
      await this.dispatch.get(req, url, { asClient: true, headers: forwarded(req) }),
    );
  }
}
