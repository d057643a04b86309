import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { mustBeSent } from '../../publishing/openapi/param-schema';
import { MCP_CONFIG, type McpConfig } from '../../mcp/mcp.config';
import { MCP_PATH } from '../../mcp/mcp.route';
import { CONTEXT_ARGUMENTS, USER_ARGUMENT } from '../../mcp/mcp-schemas';
import { toolName } from '../../mcp/mcp-tools';
import type { ActionUnderTest, ConformanceCheck } from './conformance.types';
import { type Call, CONFORMANCE_USER, quote, sampleCall, send } from './conformance.request';
import { findings } from './conformance.http-rules';
import { withParam } from './conformance.param-rules';
import { sessionToken } from './conformance.token';
import { badValue, validFiles } from './conformance.values';

type Rpc = { result?: Record<string, unknown>; error?: { message?: string } };

/** One JSON-RPC message to /mcp, as an MCP client posts it (stateless: no session to open). */
async function rpc(
  target: ActionUnderTest,
  method: string,
  params: object,
  authorization?: string,
): Promise<Rpc> {
  const response = await target.app.inject({
    method: 'POST',
    url: MCP_PATH,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization !== undefined && { authorization }),
    },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  try {
    return response.json<Rpc>();
  } catch {
    return { error: { message: `${response.statusCode} ${response.body.slice(0, 200)}` } };
  }
}

/** A conformance call as the tool's arguments: its parameters, files in base64, user, chain. */
function argumentsOf(call: Call): Record<string, unknown> {
  const files = Object.entries(call.files ?? {}).map(([name, file]): [string, unknown] => [
    name,
    { data: file.bytes.toString('base64'), name: file.filename },
  ]);
  return {
    ...call.params,
    ...Object.fromEntries(files),
    ...(call.userAddress !== undefined && { [USER_ARGUMENT]: call.userAddress }),
    ...(call.chainId !== undefined && { chain: call.chainId }),
  };
}

/** The call through the tool, with the same session the route's call carries. */
async function callTool(target: ActionUnderTest, name: string, call: Call): Promise<Rpc> {
  const verified = call.verifiedAs;
  const chainId = Number(call.chainId ?? 0) || (call.verifiedOn ?? 0);
  const authorization =
    verified === undefined
      ? undefined
      : `Bearer ${await sessionToken(target.app, verified, chainId)}`;
  return rpc(target, 'tools/call', { name, arguments: argumentsOf(call) }, authorization);
}

/** The names the tool must take and require: what the route takes and requires, and the context. */
function schemaProblems(target: ActionUnderTest, tool: Tool): string[] {
  const open = target.params.filter((p) => p.fixed !== true);
  const expected = [...open.map((p) => p.name), ...CONTEXT_ARGUMENTS].sort();
  const named = Object.keys(tool.inputSchema.properties ?? {}).sort();
  const needsUser = target.declaration.requiresUser && target.declaration.user !== 'verified';
  const required = [...open.filter(mustBeSent).map((p) => p.name), ...(needsUser ? ['user'] : [])];
  const problems: string[] = [];
  if (named.join() !== expected.join()) {
    problems.push(`its arguments ${named.join(', ')} are not ${expected.join(', ')}`);
  }
  if ((tool.inputSchema.required ?? []).join() !== required.join()) {
    problems.push(
      `it requires ${tool.inputSchema.required?.join(', ')}, not ${required.join(', ')}`,
    );
  }
  if (target.dataMode !== (tool.outputSchema?.required ?? []).includes('data')) {
    problems.push('its output schema is not its mode’s');
  }
  return problems;
}

/** The words a route's refusal gives: what the tool's error must say. */
const routeWords = (body: unknown): string => {
  const { message, error } = (body ?? {}) as { message?: unknown; error?: unknown };
  return typeof message === 'string' && message !== ''
    ? message
    : typeof error === 'string'
      ? error
      : '';
};

/**
 * The action as an MCP tool (src/mcp): listed under its name, taking what its route takes and
 * requiring what it requires; each sample, sent as arguments, validating against the input
 * schema and answered with structured content that validates against the output schema; each
 * parameter's bad value a tool error saying what the route says, with its status.
 */
export const checkMcp: ConformanceCheck = async (target) => {
  // MCP=off: there is no tool to check (docs/agents.md).
  if (!target.app.get<McpConfig>(MCP_CONFIG, { strict: false }).enabled) return [];
  const name = toolName(target.path);
  const listed = await rpc(target, 'tools/list', {});
  const tool = (listed.result?.tools as Tool[] | undefined)?.find((t) => t.name === name);
  if (!tool) return findings('mcp', [`tools/list has no tool ${name}`]);
  const problems = schemaProblems(target, tool).map((p) => `tool ${name}: ${p}`);
  const validator = new AjvJsonSchemaValidator();
  const input = validator.getValidator(tool.inputSchema);
  const output = validator.getValidator(tool.outputSchema as JsonSchemaType);
  for (const sample of target.samples) {
    const call = sampleCall(sample, validFiles(target.params));
    if (target.declaration.user === 'verified') {
      call.verifiedAs = sample.userAddress ?? CONFORMANCE_USER;
      call.verifiedOn = target.declaration.chains.source;
    }
    const what = `tool ${name} with sample ${JSON.stringify(sample.params)}`;
    const refused = input(argumentsOf(call)).errorMessage;
    if (refused !== undefined) problems.push(`${what}: its input schema refuses it: ${refused}`);
    const answer = await callTool(target, name, call);
    const result = answer.result as CallToolResult | undefined;
    // A paid action's tool answers what its route answers an unpaid call: 402, the terms being in
    // the route's PAYMENT-REQUIRED header (docs/agents.md, "Paid actions").
    if (target.declaration.price !== undefined) {
      if (result?.isError !== true || result._meta?.status !== 402) {
        problems.push(`${what} (paid) was answered ${JSON.stringify(answer).slice(0, 300)}`);
      }
      continue;
    }
    if (!result || result.isError) {
      problems.push(`${what} was answered ${JSON.stringify(answer).slice(0, 300)}`);
      continue;
    }
    const broken = output(result.structuredContent).errorMessage;
    if (broken !== undefined) problems.push(`${what}: its output schema refuses it: ${broken}`);
  }
  for (const param of target.params) {
    const call = withParam(target, param, badValue(param));
    const [direct, answer] = [
      await send(target.app, 'POST', target.path, call),
      await callTool(target, name, call),
    ];
    const result = answer.result as CallToolResult | undefined;
    const text = result?.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    const status = (result?._meta as { status?: unknown } | undefined)?.status;
    if (result?.isError !== true || status !== direct.status || text !== routeWords(direct.body)) {
      problems.push(
        `tool ${name} with a bad ${param.name} was answered ${JSON.stringify(answer).slice(0, 300)}; the route ${quote(direct)}`,
      );
    }
  }
  return findings('mcp', problems);
};
