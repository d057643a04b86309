import { createHash } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { decodeFunctionData, erc20Abi, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import type { ExecutionResponse } from '../../src/contract/action.types';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import {
  deserializeTransaction,
  sendAnswer,
  startTestChain,
  type TestChain,
} from '../../src/testing/local-chain';
import { validFile } from '../../src/testing/conformance/conformance.values';
import { UploadFixtureModule } from '../fixtures/upload.fixture';
import { createTestApp, postJson } from '../support/app.factory';
import { fetchDocument, validateOpenApi } from '../support/openapi.helper';
import { heard, SendTokenWithHookModule } from '../support/outcomes.helper';
import { SIWE_BASE, signInAs } from '../support/siwe.helper';

/** An MCP client of the official SDK on the app's /mcp, with a bearer token if given. */
async function connect(base: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** What an MCP client sends with each JSON-RPC message it posts (Streamable HTTP). */
const RPC_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

const textOf = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/**
 * The official SDK's client (Client + StreamableHTTPClientTransport) against the real app on a
 * port: every action a tool, calls run through the actions' own routes, a transaction signed on
 * the local chain and its intent settled, read back through transaction_status.
 */
describe('MCP: every action as a tool on /mcp', () => {
  let testChain: TestChain;
  let app: NestFastifyApplication;
  let base: string;
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    testChain = await startTestChain();
    app = await createTestApp({
      env: { ...testChain.env, OUTCOME_POLL_MS: '50', PUBLIC_BASE_URL: SIWE_BASE },
      actions: [CalculatorModule, SendTokenWithHookModule, MyTransactionsModule],
    });
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    client = await connect(base);
    ({ tools } = await client.listTools());
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await testChain?.stop();
  });

  it('is in the OpenAPI document beside the actions and the blinks, which stays valid', async () => {
    const document = await fetchDocument(app);
    const mcp = document.paths['/mcp'];
    expect(Object.keys(mcp).sort()).toEqual(['get', 'post']);
    expect(Object.keys(mcp.post.responses).sort()).toEqual(
      ['200', '202', '400', '403', '406', '413', '415'].sort(),
    );
    expect(mcp.get.responses['405']).toBeDefined();
    expect(mcp.post.description).toContain('POST /api/auth/siwe');
    expect(document.tags?.map((tag) => tag.name)).toEqual(
      expect.arrayContaining(['MCP', 'Blinks']),
    );
    expect(document.paths['/api/blinks/{name}']).toBeDefined();
    expect(document.paths['/api/calculator']).toBeDefined();
    expect(validateOpenApi(document)).toEqual({ valid: true, version: '3.1' });
  });

  const toolNamed = (name: string): Tool => {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    return tool;
  };

  it('lists a tool per action, and transaction_status, each with its schemas', () => {
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['calculator', 'my_transactions', 'send_token', 'transaction_status'].sort(),
    );
    const calculator = toolNamed('calculator');
    expect(calculator.title).toBe('Calculate');
    expect(calculator.description).toMatch(/^Add, subtract, multiply or divide two numbers/);
    // The route's rules: the operation's options, the numbers, all three required.
    expect(calculator.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        operation: { type: 'string', enum: ['add', 'subtract', 'multiply', 'divide'] },
        a: { type: 'number' },
        b: { type: 'number' },
        user: { type: 'string' },
        chain: { type: ['integer', 'string'] },
      },
      required: ['operation', 'a', 'b'],
      additionalProperties: false,
    });
    const sendToken = toolNamed('send_token');
    expect(sendToken.inputSchema.required).toEqual(['token', 'recipient', 'amount', 'user']);
    expect(sendToken.inputSchema.properties?.amount).toMatchObject({
      type: 'string',
      maxLength: 100,
      pattern: expect.any(String),
    });
    expect(sendToken.outputSchema?.required).toEqual([
      'serializedTransaction',
      'chainId',
      'message',
    ]);
  });

  it('calculator: structured content that validates against its output schema', async () => {
    const result = (await client.callTool({
      name: 'calculator',
      arguments: { operation: 'multiply', a: 6, b: 7 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      data: { operation: 'multiply', a: 6, b: 7, result: 42 },
      message: '6 × 7 = 42',
    });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    const validate = new AjvJsonSchemaValidator().getValidator(
      toolNamed('calculator').outputSchema as JsonSchemaType,
    );
    expect(validate(result.structuredContent)).toMatchObject({ valid: true });
    // The schema is not a formality: a wrong result is refused by it.
    const wrong = { data: { operation: 'multiply', a: 6, b: 7, result: '42' }, message: '' };
    expect(validate(wrong).valid).toBe(false);
  });

  it('send_token: a transaction signed on the chain, its intent confirmed through transaction_status', async () => {
    const [user] = testChain.users;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const result = (await client.callTool({
      name: 'send_token',
      arguments: { token: 'USDC', recipient, amount: '2.5', user: user.address },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as unknown as ExecutionResponse & {
      intent: string;
      message: string;
    };
    expect(answer).toMatchObject({
      chainId: 43113,
      serializedTransaction: expect.stringMatching(/^0x02/),
      intent: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      message: expect.any(String),
    });
    const tx = deserializeTransaction(answer.serializedTransaction);
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data! }).args).toEqual([
      recipient,
      parseUnits('2.5', 6),
    ]);
    const { receipt } = await sendAnswer(testChain, user, answer);
    expect(receipt.status).toBe('success');
    // The follower settles the intent from the chain (no hash reported); the hook says when.
    await heard(answer.intent, 'confirmed');
    const status = (await client.callTool({
      name: 'transaction_status',
      arguments: { intent: answer.intent },
    })) as CallToolResult;
    expect(status.structuredContent).toEqual({
      data: {
        intent: answer.intent,
        action: '/api/send-token',
        chainId: 43113,
        status: 'confirmed',
        hash: receipt.transactionHash,
        blockNumber: receipt.blockNumber.toString(),
        updatedAt: expect.any(Number),
      },
      message: 'The transaction is confirmed',
    });
  });

  it('a refused call is a tool error whose text is the action’s own message', async () => {
    const [, user] = testChain.users;
    const params = {
      token: 'USDC',
      recipient: privateKeyToAccount(generatePrivateKey()).address,
      amount: '100000000000',
    };
    const direct = await postJson(
      app,
      '/api/send-token',
      { params },
      { 'x-user-address': user.address },
    );
    expect(direct.status).toBe(400);
    // A transaction action's refusal says it in `error` (its `message` when it has one besides).
    const words = (direct.body.message ?? direct.body.error) as string;
    expect(words).toMatch(/^You have .* USDC; this needs 100,000,000,000 USDC$/);
    const result = (await client.callTool({
      name: 'send_token',
      arguments: { ...params, user: user.address },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(words);
    expect(result._meta).toMatchObject({ status: 400, code: direct.body.code });
    expect(result.structuredContent).toBeUndefined();
  });

  it('refuses what the route refuses, and arguments the tool does not take', async () => {
    const bad = (await client.callTool({
      name: 'calculator',
      arguments: { operation: 'modulo', a: 1, b: 2 },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/operation/);
    const unknown = (await client.callTool({
      name: 'calculator',
      arguments: { operation: 'add', a: 1, b: 2, c: 3 },
    })) as CallToolResult;
    expect([unknown.isError, textOf(unknown)]).toEqual([true, 'c is not an argument of this tool']);
    const noUser = (await client.callTool({
      name: 'send_token',
      arguments: { token: 'AVAX', recipient: testChain.users[2].address, amount: '1' },
    })) as CallToolResult;
    expect([noUser.isError, textOf(noUser)]).toEqual([true, 'Connect a wallet to run this action']);
  });

  it('a verified action: refused without a bearer token, answered with one', async () => {
    const without = (await client.callTool({
      name: 'my_transactions',
      arguments: {},
    })) as CallToolResult;
    expect(without.isError).toBe(true);
    expect(without._meta).toMatchObject({ status: 401, code: 'UNVERIFIED_USER' });
    const account = privateKeyToAccount(generatePrivateKey());
    const token = await signInAs(
      app,
      account.address,
      (message) => account.signMessage({ message }),
      43113,
    );
    const signedIn = await connect(base, token);
    try {
      const result = (await signedIn.callTool({
        name: 'my_transactions',
        arguments: { limit: 5 },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ data: { transactions: [] } });
    } finally {
      await signedIn.close();
    }
  });
});

describe('MCP=off', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp({ env: { MCP: 'off' }, actions: [CalculatorModule] });
  });
  afterAll(() => app?.close());

  it('registers no /mcp route: 404, while the action’s own route answers', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: RPC_HEADERS,
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.statusCode).toBe(404);
    const action = await postJson(app, '/api/calculator', {
      params: { operation: 'add', a: 1, b: 2 },
    });
    expect(action.status).toBe(200);
  });

  it('leaves /mcp out of the OpenAPI document', async () => {
    const document = await fetchDocument(app);
    expect(document.paths['/mcp']).toBeUndefined();
    expect(document.tags?.map((tag) => tag.name)).not.toContain('MCP');
    expect(document.paths['/api/calculator']).toBeDefined();
  });
});

describe('The /mcp endpoint at the edge', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createTestApp({
      env: { ALLOWED_ORIGINS: 'https://app.example' },
      actions: [CalculatorModule],
    });
  });
  afterAll(() => app?.close());

  it('lets an allowed page preflight with the headers MCP clients send', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/mcp',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
      },
    });
    expect(response.statusCode).toBeLessThan(300);
    expect(response.headers['access-control-allow-origin']).toBe('https://app.example');
    const allowed = String(response.headers['access-control-allow-headers']).toLowerCase();
    for (const name of ['authorization', 'content-type', 'mcp-protocol-version']) {
      expect(allowed).toContain(name);
    }
  });

  it('refuses an origin ALLOWED_ORIGINS leaves out (DNS rebinding), as the routes do', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...RPC_HEADERS, origin: 'https://evil.example' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'This app may not call the action' },
      id: null,
    });
  });

  it('answers GET and DELETE 405: stateless, no stream and no session', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await app.inject({ method, url: '/mcp', headers: RPC_HEADERS });
      expect([method, response.statusCode, response.headers.allow]).toEqual([
        method,
        405,
        'POST, OPTIONS',
      ]);
    }
  });

  it('bounds the body as every JSON route does (no action here takes files)', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: RPC_HEADERS,
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        pad: 'x'.repeat(1_100_000),
      }),
    });
    expect(response.statusCode).toBe(413);
  });
});

describe('MCP calls count where the route’s own calls count', () => {
  let app: NestFastifyApplication;
  const user = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  beforeAll(async () => {
    app = await createTestApp({ env: { RATE_LIMIT_USER_MAX: '2' }, actions: [CalculatorModule] });
  });
  afterAll(() => app?.close());

  const callCalculator = async (): Promise<CallToolResult> => {
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: RPC_HEADERS,
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'calculator', arguments: { operation: 'add', a: 1, b: 2, user } },
      }),
    });
    return response.json<{ result: CallToolResult }>().result;
  };

  /** dynamic_action_rate_limited_total and the calculator's 200s, from the app's registry. */
  async function counted(): Promise<{ limited: number; answered: number }> {
    const { registry } = app.get(ActionMetrics);
    const limited = await registry.getSingleMetric('dynamic_action_rate_limited_total')!.get();
    const requests = await registry.getSingleMetric('dynamic_action_requests_total')!.get();
    const sum = (values: { labels: object; value: number }[], match: object): number =>
      values
        .filter(({ labels }) => Object.entries(match).every(([k, v]) => (labels as never)[k] === v))
        .reduce((total, { value }) => total + value, 0);
    return {
      limited: sum(limited.values, { action: '/api/calculator', limit: 'user' }),
      answered: sum(requests.values, { action: '/api/calculator', status: '200' }),
    };
  }

  it('one user limit for the route and its tool: the third call is refused, and counted', async () => {
    const direct = await postJson(
      app,
      '/api/calculator',
      { params: { operation: 'add', a: 1, b: 2 } },
      { 'x-user-address': user },
    );
    expect(direct.status).toBe(200);
    expect((await callCalculator()).isError).toBeFalsy();
    const refused = await callCalculator();
    expect(refused.isError).toBe(true);
    expect(refused._meta).toMatchObject({ status: 429, retryAfter: expect.any(Number) });
    expect(await counted()).toEqual({ limited: 1, answered: 2 });
  });
});

describe('MCP file arguments: base64, under the upload’s own limits', () => {
  let app: NestFastifyApplication;
  const png = validFile({ name: 'avatar', type: 'image', label: 'Avatar' }).bytes;
  beforeAll(async () => {
    app = await createTestApp({
      env: {
        BODY_LIMIT_BYTES: '4096',
        UPLOAD_MAX_BYTES: '8192',
        UPLOAD_MAX_INFLIGHT_BYTES: '8192',
      },
      actions: [UploadFixtureModule],
    });
  });
  afterAll(() => app?.close());

  const post = (message: object, pad = ''): ReturnType<NestFastifyApplication['inject']> =>
    app.inject({
      method: 'POST',
      url: '/mcp',
      headers: RPC_HEADERS,
      // Padding rides in `_meta`, which every request may carry.
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        ...message,
        ...(pad && { params: { _meta: { pad } } }),
      }),
    });
  const upload = async (args: object): Promise<CallToolResult> =>
    (await post({ method: 'tools/call', params: { name: 'upload', arguments: args } })).json<{
      result: CallToolResult;
    }>().result;
  const b64 = (bytes: Buffer): string => bytes.toString('base64');

  it('reaches the action as the files it would receive in a multipart upload', async () => {
    const text = Buffer.from('a note');
    const result = await upload({
      document: { data: b64(text), name: 'note.txt' },
      gallery: [{ data: b64(png) }, { data: b64(png), name: 'two.png' }],
      caption: 'hi',
    });
    expect(result.isError).toBeFalsy();
    const data = (result.structuredContent as { data: Record<string, unknown> }).data;
    expect(data.document).toMatchObject({
      filename: 'note.txt',
      mimeType: 'text/plain',
      size: text.length,
      sha256: createHash('sha256').update(text).digest('hex'),
    });
    expect(data.gallery).toEqual([
      expect.objectContaining({ filename: 'gallery', mimeType: 'image/png', size: png.length }),
      expect.objectContaining({ filename: 'two.png', mimeType: 'image/png' }),
    ]);
    expect(data.caption).toBe('hi');
  });

  it.each([
    [
      'over maxSize',
      { document: { data: b64(Buffer.alloc(3000, 97)), name: 'a.txt' } },
      /The upload is too large/,
      413,
    ],
    [
      'not of an accepted type (read from the bytes)',
      { document: { data: b64(png), name: 'a.txt' } },
      /document must be of type/,
      400,
    ],
    [
      'an image that is none',
      { avatar: { data: b64(Buffer.from('not an image')) } },
      /avatar must be an image|avatar must be of type/,
      400,
    ],
    ['not base64', { document: { data: '***' } }, /^document.data must be base64$/, 400],
  ])('refuses a file %s, as the upload route does', async (_what, args, words, status) => {
    const result = await upload(args);
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ status });
    const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    expect(text).toMatch(words);
  });

  it('admits a body past BODY_LIMIT_BYTES as an upload: refused unread past the uploads in flight', async () => {
    // 4096 + the base64 of 8192 bytes is the endpoint's bound; 8192 bytes in flight are allowed.
    const over = await post({ method: 'tools/list' }, 'x'.repeat(9000));
    expect(over.statusCode).toBe(503);
    expect(over.json()).toMatchObject({
      error: { message: expect.stringMatching(/too many uploads/) },
    });
    const tooLarge = await post({ method: 'tools/list' }, 'x'.repeat(16_000));
    expect(tooLarge.statusCode).toBe(413);
    const fine = await post({ method: 'tools/list' }, 'x'.repeat(5000));
    expect(fine.statusCode).toBe(200);
  });
});
