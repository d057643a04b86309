import type { ActionDeclaration } from '../contract/action.types';
import { ActionParam } from '../kit/action-param.decorator';
import type { ActionRegistry } from '../kit/action.registry';
import { inputSchema } from './mcp-schemas';
import { McpTools, STATUS_TOOL, toolDescription, toolName } from './mcp-tools';

class Params {
  @ActionParam({ type: 'uint256', label: 'Amount', required: true, max: '1000' })
  amount!: string;

  @ActionParam({ type: 'text', label: 'Memo', fixed: true, value: 'hi' })
  memo!: string;

  @ActionParam({ type: 'image', label: 'Picture', maxSize: 1000, accept: 'image/png' })
  picture!: unknown;
}

class UserParams {
  @ActionParam({ type: 'address', label: 'User', required: true })
  user!: string;
}

const declaration = (over: Partial<ActionDeclaration> = {}): ActionDeclaration =>
  ({
    label: 'Pay',
    description: 'Pays',
    chains: { source: 43113 },
    path: '/api/pay-now',
    params: Params,
    requiresUser: true,
    ...over,
  }) as ActionDeclaration;

const registry = (...declarations: ActionDeclaration[]): ActionRegistry =>
  ({ declarations: () => declarations }) as unknown as ActionRegistry;

describe('MCP tools', () => {
  it('are named after the path, in snake case', () => {
    expect(toolName('/api/send-token')).toBe('send_token');
    expect(toolName('/api/v2/Best.Swap')).toBe('v2_best_swap');
  });

  it('take the parameters a request may set, files as base64, user and chain', () => {
    const tools = new McpTools(registry(declaration()));
    expect(tools.tools[0].name).toBe(STATUS_TOOL);
    const [{ tool }] = tools.actions();
    expect(tool.name).toBe('pay_now');
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual([
      'amount',
      'picture',
      'user',
      'chain',
    ]);
    expect(tool.inputSchema.required).toEqual(['amount', 'user']);
    expect(tool.inputSchema.properties?.amount).toEqual({
      type: ['integer', 'string'],
      pattern: '^[+-]?\\d+$',
      minimum: 0,
      maximum: 1000,
      title: 'Amount',
      description: expect.stringContaining('from 0 to 1000'),
    });
    expect(tool.inputSchema.properties?.picture).toMatchObject({
      type: 'object',
      properties: { data: { contentEncoding: 'base64', contentMediaType: 'image/png' } },
      required: ['data'],
    });
    expect(tool.description).toMatch(/unsigned transaction[\s\S]*Runs POST \/api\/pay-now\.$/);
  });

  it('do not require user where the session proves it', () => {
    const verified = declaration({ user: 'verified' });
    expect(inputSchema(verified, []).required).toBeUndefined();
    expect(toolDescription(verified)).toMatch(/bearer token/);
  });

  it('stop the boot for a parameter named as a context argument, or two tools of one name', () => {
    expect(() => new McpTools(registry(declaration({ params: UserParams })))).toThrow(
      /parameter "user" is an argument every tool takes/,
    );
    expect(
      () => new McpTools(registry(declaration(), declaration({ path: '/api/pay_now' }))),
    ).toThrow(/tool name pay_now is \/api\/pay-now's too/);
    expect(() => new McpTools(registry(declaration({ path: '/api/transaction-status' })))).toThrow(
      /transaction_status/,
    );
  });

  it('check a data answer against the declared dataSchema', () => {
    const data = declaration({
      responseType: 'data',
      dataSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    });
    const [tool] = new McpTools(registry(data)).actions();
    expect(tool.outputProblem({ data: { n: 1 }, message: '' })).toBeUndefined();
    expect(tool.outputProblem({ data: { n: '1' }, message: '' })).toMatch(/number/);
  });
});
