import type { ActionDeclaration, ActionParameter } from '../contract/action.types';
import { ArgumentRefusal, routeRequest } from './mcp-arguments';
import type { ActionTool } from './mcp-tools';

const param = (spec: Partial<ActionParameter> & Pick<ActionParameter, 'name' | 'type'>) => ({
  label: spec.name,
  ...spec,
});

const tool = (params: ActionParameter[]): ActionTool => ({
  tool: { name: 't', inputSchema: { type: 'object' } },
  declaration: { path: '/api/t' } as ActionDeclaration,
  params,
  outputProblem: () => undefined,
});

const amount = param({ name: 'amount', type: 'number' });
const fixedToken = param({ name: 'token', type: 'text', fixed: true, value: 'USDC' });
const image = param({ name: 'image', type: 'image' });

describe('routeRequest', () => {
  it('sends the parameters as {params}, user and chain as the headers a platform call carries', async () => {
    const request = await routeRequest(tool([amount]), {
      amount: 3,
      user: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chain: 'fuji',
    });
    expect(request).toEqual({
      contentType: 'application/json',
      payload: JSON.stringify({ params: { amount: 3 } }),
      headers: {
        'x-user-address': '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        'x-source-chain': 'fuji',
      },
    });
  });

  it('refuses an argument the tool does not take, a fixed parameter included', async () => {
    await expect(routeRequest(tool([amount, fixedToken]), { token: 'DAI' })).rejects.toEqual(
      new ArgumentRefusal('token is not an argument of this tool'),
    );
    await expect(routeRequest(tool([amount]), [1])).rejects.toThrow(ArgumentRefusal);
  });

  it('sends a file as the multipart form an upload is, its bytes decoded', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const request = await routeRequest(tool([amount, image]), {
      amount: 2,
      image: { data: bytes.toString('base64'), name: 'a.png' },
    });
    expect(request.contentType).toMatch(/^multipart\/form-data; boundary=/);
    // Read back by the platform's own parser: the same fields and bytes.
    const form = await new Response(request.payload, {
      headers: { 'content-type': request.contentType },
    }).formData();
    expect(form.get('amount')).toBe('2');
    const file = form.get('image') as File;
    expect(file.name).toBe('a.png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
  });

  it('refuses a file that is not base64, or not {data}', async () => {
    await expect(routeRequest(tool([image]), { image: { data: 'not base64!' } })).rejects.toEqual(
      new ArgumentRefusal('image.data must be base64'),
    );
    await expect(routeRequest(tool([image]), { image: { bytes: 'AAAA' } })).rejects.toThrow(
      /image must be \{"data"/,
    );
  });
});
