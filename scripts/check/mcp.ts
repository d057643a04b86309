import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PATH } from '../../src/mcp/mcp.route';
import { toolName } from '../../src/mcp/mcp-tools';
import { validFiles } from '../../src/testing/conformance/conformance.values';
import type { ActionUnderCheck, Sample } from './actions';
import type { CheckOptions } from './options';
import type { Row } from './rows';

const elapsed = (started: number): number => performance.now() - started;
const why = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A sample as the tool's arguments: its parameters, the kit's files in base64, user, chain. */
function argumentsOf(action: ActionUnderCheck, sample: Sample): Record<string, unknown> {
  const files = Object.entries(validFiles(action.params)).map(([name, file]): [string, unknown] => [
    name,
    { data: file.bytes.toString('base64'), name: file.filename },
  ]);
  return {
    ...sample.params,
    ...Object.fromEntries(files),
    ...(sample.userAddress !== undefined && { user: sample.userAddress }),
    ...(sample.chainId !== undefined && { chain: sample.chainId }),
  };
}

/**
 * The action's first sample through its tool (the HTTP rows ran every sample already; one call
 * proves the tool's path, and each more would run a transaction's simulation again): answered,
 * its structured content kept to the tool's output schema (the SDK's client checks it, and
 * throws otherwise); a verified action's refused 401 for want of a session, as its route is.
 */
async function toolRow(
  client: Client,
  action: ActionUnderCheck,
  tool: Tool | undefined,
  options: CheckOptions,
): Promise<Row> {
  const path = new URL(action.url).pathname;
  const row = { what: 'MCP tool', target: `tools/call ${toolName(path)}` };
  if (!tool) return { ...row, result: 'FAIL', detail: 'tools/list does not name it' };
  const samples = (action.samples ?? []).slice(0, 1);
  if (samples.length === 0) return { ...row, result: 'SKIP', detail: 'no samples to send' };
  const started = performance.now();
  for (const [index, sample] of samples.entries()) {
    let result: CallToolResult;
    try {
      result = (await client.callTool(
        { name: tool.name, arguments: argumentsOf(action, sample) },
        undefined,
        { timeout: options.maxMs },
      )) as CallToolResult;
    } catch (error) {
      const detail = `sample ${index + 1}: ${why(error)}`;
      return { ...row, result: 'FAIL', detail, ms: elapsed(started) };
    }
    const status = (result._meta as { status?: unknown } | undefined)?.status;
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    const fine = action.verified ? result.isError === true && status === 401 : !result.isError;
    if (!fine) {
      const detail = `sample ${index + 1}: ${result.isError ? `${String(status)}: ${text}` : 'answered without a session'}`;
      return { ...row, result: 'FAIL', detail, ms: elapsed(started) };
    }
  }
  const detail = action.verified
    ? '401, asks for a session (user: verified)'
    : 'sample 1 answered in the output schema';
  return { ...row, result: 'PASS', detail, ms: elapsed(started) };
}

/**
 * The MCP endpoint (docs/agents.md), met with the official SDK's client as an agent meets it:
 * its tools listed, each checked action's tool called with the action's samples. A deployment
 * answering 404 on /mcp serves none (MCP=off): one SKIP row.
 */
export async function mcpRows(
  options: CheckOptions,
  actions: readonly ActionUnderCheck[],
): Promise<Row[]> {
  const row = { what: 'MCP tools', target: `POST ${MCP_PATH}` };
  const client = new Client({ name: 'npm-run-check', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${options.baseUrl}${MCP_PATH}`));
  const started = performance.now();
  let tools: Tool[];
  try {
    await client.connect(transport, { timeout: options.maxMs });
    ({ tools } = await client.listTools(undefined, { timeout: options.maxMs }));
  } catch (error) {
    await client.close().catch(() => undefined);
    if (error instanceof StreamableHTTPError && error.code === 404) {
      return [{ ...row, result: 'SKIP', detail: '404: no MCP endpoint (MCP=off)' }];
    }
    return [{ ...row, result: 'FAIL', detail: why(error), ms: elapsed(started) }];
  }
  const rows: Row[] = [
    { ...row, result: 'PASS', detail: `${tools.length} tools listed`, ms: elapsed(started) },
  ];
  try {
    for (const action of actions) {
      const name = toolName(new URL(action.url).pathname);
      rows.push(
        await toolRow(
          client,
          action,
          tools.find((t) => t.name === name),
          options,
        ),
      );
    }
  } finally {
    await client.close().catch(() => undefined);
  }
  return rows;
}
