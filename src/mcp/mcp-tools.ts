import { Injectable } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ActionDeclaration, ActionParameter } from '../contract/action.types';
import { getDeclaredParams } from '../kit/action-param.decorator';
import { ActionRegistry } from '../kit/action.registry';
import { TRANSACTIONS_PATH } from '../outcomes/transactions.controller';
import {
  CONTEXT_ARGUMENTS,
  inputSchema,
  outputSchema,
  STATUS_INPUT,
  STATUS_OUTPUT,
} from './mcp-schemas';

/** The tool that reads an intent, as `GET /api/transactions/<intent>` does. */
export const STATUS_TOOL = 'transaction_status';

/** One action as a tool: what tools/list shows, and what a call needs to run it. */
export interface ActionTool {
  tool: Tool;
  declaration: ActionDeclaration;
  params: readonly ActionParameter[];
  /**
   * Why structured content breaks the tool's output schema (undefined when it keeps it): a
   * client that validates, as the SDK's does, would refuse it.
   */
  outputProblem(content: unknown): string | undefined;
}

/** MCP tool names: letters, digits, `_` and `-`, 64 at most (what Claude's clients accept). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `/api/send-token` → `send_token`: the path after `/api/`, in the snake case of transaction_status. */
export function toolName(path: string): string {
  return path
    .replace(/^\/(api\/)?/, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/**
 * What an agent reads to choose and call the tool: the declaration's own words, then what the
 * mode means for it. One place, so what a later layer adds (a price) has one place to go.
 */
export function toolDescription(declaration: ActionDeclaration): string {
  const said = [declaration.description, declaration.docs].filter(Boolean).join('\n\n');
  const mode =
    declaration.responseType === 'data'
      ? 'Answers data: `{data, message}` as structured content.'
      : `Answers an unsigned transaction (serializedTransaction, chainId) for the user's wallet to sign and send, with its intent: read what became of it with ${STATUS_TOOL}. Nothing is sent by the service.`;
  const user =
    declaration.user === 'verified'
      ? 'Needs a verified user: send the session token (POST /api/auth/siwe) as the MCP request’s bearer token.'
      : declaration.requiresUser
        ? 'Needs `user`, the acting wallet address.'
        : '';
  return [said, `${mode} ${user}`.trim(), `Runs POST ${declaration.path}.`]
    .filter(Boolean)
    .join('\n\n');
}

/** A boot refusal: a declaration whose tool MCP clients could not call. */
function problems(tools: readonly ActionTool[]): string[] {
  const found: string[] = [];
  const seen = new Map<string, string>([[STATUS_TOOL, TRANSACTIONS_PATH]]);
  for (const { tool, declaration, params } of tools) {
    const at = `action ${declaration.path}`;
    if (!TOOL_NAME.test(tool.name)) found.push(`${at}: its tool name "${tool.name}" is not valid`);
    const other = seen.get(tool.name);
    if (other !== undefined) found.push(`${at}: its tool name ${tool.name} is ${other}'s too`);
    seen.set(tool.name, declaration.path);
    for (const param of params) {
      if (CONTEXT_ARGUMENTS.includes(param.name)) {
        found.push(`${at}: parameter "${param.name}" is an argument every tool takes`);
      }
    }
  }
  return found;
}

/**
 * Every served action as an MCP tool, built once at boot from the registry's declarations:
 * nothing is written per action. transaction_status comes first.
 */
@Injectable()
export class McpTools {
  private readonly byName = new Map<string, ActionTool>();
  readonly tools: Tool[];
  /**
   * The SDK's own validator (Ajv), the one its client checks answers with: the output schemas
   * are compiled with it at boot (a declared dataSchema that is no schema stops the boot), and
   * each request's MCP server shares it.
   */
  readonly validator = new AjvJsonSchemaValidator();

  constructor(registry: ActionRegistry) {
    const { validator } = this;
    const actions = registry.declarations().map((declaration): ActionTool => {
      const params = getDeclaredParams(declaration.params);
      const output = outputSchema(declaration);
      const validate = validator.getValidator(output);
      return {
        declaration,
        params,
        tool: {
          name: toolName(declaration.path),
          title: declaration.label,
          description: toolDescription(declaration),
          inputSchema: inputSchema(declaration, params),
          outputSchema: output,
          annotations: { title: declaration.label, openWorldHint: declaration.callsOutside },
        },
        outputProblem: (content) => validate(content).errorMessage,
      };
    });
    const found = problems(actions);
    if (found.length > 0) {
      throw new Error(`Actions that cannot be MCP tools (MCP=on):\n  - ${found.join('\n  - ')}`);
    }
    for (const action of actions) this.byName.set(action.tool.name, action);
    this.tools = [statusTool(), ...actions.map(({ tool }) => tool)];
  }

  /** Every action's tool. */
  actions(): ActionTool[] {
    return [...this.byName.values()];
  }

  /** The action a tool name runs; undefined for another name (transaction_status included). */
  action(name: string): ActionTool | undefined {
    return this.byName.get(name);
  }
}

function statusTool(): Tool {
  return {
    name: STATUS_TOOL,
    title: 'Transaction status',
    description:
      'What became of a transaction a tool answered, by its intent: answered (not seen yet), submitted, then confirmed, reverted, replaced, expired or unchecked. ' +
      `Runs GET ${TRANSACTIONS_PATH}/<intent>.`,
    inputSchema: STATUS_INPUT,
    outputSchema: STATUS_OUTPUT,
    annotations: { title: 'Transaction status', readOnlyHint: true, openWorldHint: false },
  };
}
