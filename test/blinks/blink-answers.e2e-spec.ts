import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { ActionGetResponse, ActionsJson, PostResponse } from '@solana/actions-spec';
import type { LightMyRequestResponse } from 'fastify';
import { CalculatorModule } from '../../src/actions/calculator/calculator.module';
import { MintNftModule } from '../../src/actions/mint-nft/mint-nft.module';
import { SendTokenModule } from '../../src/actions/send-token/send-token.module';
import { createTestApp } from '../support/app.factory';

const USER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const SITE = 'https://wallet.example';

/**
 * The blinks' answers in the spec's shapes, with no chain: documents, a data action's result,
 * and every refusal as `{message}` with its status and the action headers.
 */
describe('Blinks: documents, data actions and refusals', () => {
  let app: NestFastifyApplication;
  const call = (
    method: 'GET' | 'POST' | 'OPTIONS',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url,
      headers: { origin: SITE, ...headers },
      ...(payload !== undefined && { payload: JSON.stringify(payload) }),
      ...(payload !== undefined && {
        headers: { origin: SITE, 'content-type': 'application/json', ...headers },
      }),
    });
  /** The spec's headers and CORS on a blink answer, whatever its status. */
  const expectBlinkHeaders = (res: LightMyRequestResponse, chains = 'eip155:43113'): void => {
    expect(res.headers['x-action-version']).toBe('2.4');
    expect(res.headers['x-blockchain-ids']).toBe(chains);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(res.headers['access-control-expose-headers']).split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['X-Blockchain-Ids', 'X-Action-Intent']));
    // Each once, though the service's own list names the intent too.
    expect(exposed.filter((name) => name.toLowerCase() === 'x-action-intent')).toHaveLength(1);
  };
  const expectRefusal = (res: LightMyRequestResponse, status: number, words: RegExp): void => {
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ message: expect.stringMatching(words) });
    expectBlinkHeaders(res);
  };

  beforeAll(async () => {
    // An origin allow-list that excludes SITE: the actions refuse it, the blinks do not.
    app = await createTestApp({
      env: { ALLOWED_ORIGINS: 'https://app.sherry.social', RATE_LIMIT_USER_MAX: '3' },
      actions: [CalculatorModule, SendTokenModule, MintNftModule],
    });
    // A boot's work, not a wait: on a loaded 2-core CI it can take longer than Jest's 5 s.
  }, 60_000);
  afterAll(() => app.close());

  it('maps every blink in actions.json, with the action headers', async () => {
    const res = await call('GET', '/actions.json');
    expect(res.statusCode).toBe(200);
    expect(res.json<ActionsJson>().rules).toEqual(
      expect.arrayContaining([
        { pathPattern: '/api/calculator', apiPath: '/api/blinks/calculator' },
        { pathPattern: '/api/send-token', apiPath: '/api/blinks/send-token' },
        { pathPattern: '/api/blinks/**', apiPath: '/api/blinks/**' },
      ]),
    );
    expect(res.headers['x-blockchain-ids']).toBe('eip155:43113');
  });

  it('publishes a data action as a `post` action with its fields mapped', async () => {
    const res = await call('GET', '/api/blinks/calculator');
    expectBlinkHeaders(res);
    const blink = res.json<ActionGetResponse>();
    expect(blink).toMatchObject({ type: 'action', title: 'Calculate', label: 'Calculate' });
    expect(blink.icon).toMatch(/^http:\/\/localhost(:\d+)?\/icons\//);
    const [linked] = blink.links?.actions ?? [];
    expect(linked).toMatchObject({
      type: 'post',
      href: '/api/blinks/calculator?operation={operation}&a={a}&b={b}',
    });
    expect(linked.parameters?.map((p) => [p.name, p.type, p.required])).toEqual([
      ['operation', 'select', true],
      ['a', 'number', true],
      ['b', 'number', true],
    ]);
  });

  it('answers a data action through its blink with the result as the message', async () => {
    const res = await call('POST', '/api/blinks/calculator?operation=add&a=2', {
      account: USER,
      data: { b: '3.5' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<PostResponse>()).toEqual({
      type: 'post',
      message: expect.stringContaining('5.5'),
    });
    expectBlinkHeaders(res);
  });

  it('publishes an action with an image parameter disabled, with the reason', async () => {
    const res = await call('GET', '/api/blinks/mint-nft');
    const blink = res.json<ActionGetResponse>();
    expect(blink).toMatchObject({
      disabled: true,
      error: { message: expect.stringMatching(/image/) },
    });
    expect(blink.links).toBeUndefined();
    expectRefusal(await call('POST', '/api/blinks/mint-nft', { account: USER }), 422, /image/);
  });

  it.each([
    ['a malformed account', '/api/blinks/calculator', { account: '0x1234' }, /account/],
    ['no body', '/api/blinks/calculator', undefined, /JSON object/],
    ['a body of the wrong shape', '/api/blinks/calculator', ['0x'], /JSON object/],
    ['data of the wrong shape', '/api/blinks/calculator', { account: USER, data: 'a=1' }, /data/],
    [
      'an unknown parameter',
      '/api/blinks/calculator',
      { account: USER, data: { c: '1' } },
      /c is not/,
    ],
    [
      'a template left in an href parameter',
      '/api/blinks/send-token?token=USDC&recipient={recipient}&amount=1',
      { account: USER },
      /recipient/,
    ],
    [
      'an injected parameter in an href value',
      `/api/blinks/send-token?token=USDC&recipient=${encodeURIComponent(`${USER}&amount=9`)}&amount=1`,
      { account: USER },
      /recipient/,
    ],
    [
      '10,000 options for one value',
      '/api/blinks/calculator',
      { account: USER, data: { operation: Array(10_000).fill('add'), a: '1', b: '1' } },
      /one value/,
    ],
  ])('refuses %s with a clear 400', async (_what, url, payload, words) => {
    expectRefusal(await call('POST', url, payload), 400, words);
  });

  it('documents the blink routes in OpenAPI, one name per action', async () => {
    const { paths } = (await call('GET', '/api/openapi.json')).json<{
      paths: Record<string, Record<string, { parameters?: { schema: { enum?: string[] } }[] }>>;
    }>();
    const blink = paths['/api/blinks/{name}'];
    expect(Object.keys(blink).sort()).toEqual(['get', 'post']);
    expect(blink.post.parameters?.[0].schema.enum).toEqual([
      'calculator',
      'send-token',
      'mint-nft',
    ]);
    expect(paths['/actions.json']).toHaveProperty('get');
    expect(paths['/api/blinks/{name}/next/{intent}']).toHaveProperty('post');
    expect(paths['/api/blinks/{name}/completed/{intent}']).toHaveProperty('post');
    expect(paths['/api/blinks/{name}/sign-in']).toHaveProperty('post');
    expect(paths['/api/blinks/{name}/signed-in']).toHaveProperty('post');
  });

  it('refuses a body that is not JSON with {message} and the headers', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/blinks/calculator',
      headers: { origin: SITE, 'content-type': 'application/json' },
      payload: '{"account":',
    });
    expectRefusal(res, 400, /not valid JSON/);
  });

  it('answers an unknown blink 404 in the spec shape', async () => {
    const res = await call('GET', '/api/blinks/nothing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: expect.stringMatching(/nothing/) });
    expect(res.headers['x-action-version']).toBe('2.4');
  });

  it('answers preflights from any origin on blink routes only', async () => {
    const preflight = { 'access-control-request-method': 'POST' };
    const blink = await call('OPTIONS', '/api/blinks/calculator', undefined, preflight);
    expect(blink.statusCode).toBeLessThan(300);
    expect(blink.headers['access-control-allow-origin']).toBe('*');
    expect(blink.headers['access-control-allow-headers']).toBe(
      'Content-Type, Authorization, Content-Encoding, Accept-Encoding, X-Accept-Action-Version, X-Accept-Blockchain-Ids, x-request-id',
    );
    const action = await call('OPTIONS', '/api/calculator', undefined, preflight);
    expect(action.headers['access-control-allow-origin']).toBeUndefined();
    const refused = await call('POST', '/api/calculator', { operation: 'add', a: 1, b: 1 });
    expect(refused.statusCode).toBe(403);
  });

  it('counts the user limit on `account`, and passes Retry-After on', async () => {
    const other = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const run = () =>
      call('POST', '/api/blinks/calculator?operation=add&a=1&b=1', { account: other });
    const answers = [await run(), await run(), await run(), await run()];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 429]);
    expectRefusal(answers[3], 429, /./);
    expect(answers[3].headers['retry-after']).toBeDefined();
  });
});
