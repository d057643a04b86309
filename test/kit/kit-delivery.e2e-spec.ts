import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RequestContext } from '../../src/kit';
import { createTestApp, postJson } from '../support/app.factory';
import { ADDRESS, KitFixturesModule, OTHER_ADDRESS } from '../fixtures/kit.fixture';
import { type Sent, send } from '../support/kit.helper';

const ECHO = '/api/echo';
const WHO = '/api/who-am-i';
/** A third valid address (EIP-55 test vector). */
const THIRD_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const FOURTH_ADDRESS = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

interface Echoed {
  success: boolean;
  error?: string;
  statusCode?: number;
  data?: { params: Record<string, unknown>; context: RequestContext; invalidParams?: string[] };
}

/** A POST to the echo action unless `url` says otherwise; a payload goes as JSON. */
type Post = Partial<Sent>;

describe('Kit: parameter delivery and request context', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await createTestApp({ actions: [KitFixturesModule] });
  });
  afterAll(() => app.close());

  async function post(sent: Post) {
    const response = await send(app, { url: ECHO, ...sent });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.json<Echoed>(),
    };
  }

  describe('parameters', () => {
    it('reads `params` from the JSON body', async () => {
      const { status, body } = await postJson<Echoed>(app, ECHO, {
        params: { word: 'hi', amount: '2', flag: 'true' },
      });
      expect(status).toBe(200);
      expect(body.data?.params).toEqual({ word: 'hi', amount: 2, flag: true });
    });

    it('reads a flat body when there is no `params` key', async () => {
      const { body } = await postJson<Echoed>(app, ECHO, { word: 'hi', amount: 2, flag: false });
      expect(body.data?.params).toEqual({ word: 'hi', amount: 2, flag: false });
    });

    it('reads the query string when there is no body', async () => {
      const { status, body } = await post({ url: `${ECHO}?word=hi&amount=1.5&flag=true` });
      expect(status).toBe(200);
      expect(body.data?.params).toEqual({ word: 'hi', amount: 1.5, flag: true });
    });

    it('reads the body first and fills what is missing from the query', async () => {
      const { body } = await postJson<Echoed>(app, `${ECHO}?word=query&amount=3`, {
        params: { word: 'body' },
      });
      expect(body.data?.params).toEqual({ word: 'body', amount: 3 });
    });

    it('applies the same precedence to a flat body', async () => {
      const { body } = await postJson<Echoed>(app, `${ECHO}?word=query&flag=true`, {
        word: 'body',
        amount: 4,
      });
      expect(body.data?.params).toEqual({ word: 'body', amount: 4, flag: true });
    });

    it('treats a blank body value as missing, so the query fills it', async () => {
      const { body } = await postJson<Echoed>(app, `${ECHO}?word=query`, { params: { word: '' } });
      expect(body.data?.params).toEqual({ word: 'query' });
    });

    it('does not read top-level keys as parameters when `params` is present', async () => {
      const { body } = await postJson<Echoed>(app, ECHO, { params: { word: 'in' }, amount: 9 });
      expect(body.data?.params).toEqual({ word: 'in' });
    });

    it('accepts an empty JSON body and reads everything from the query', async () => {
      const { status, body } = await post({
        url: `${ECHO}?word=q&amount=7`,
        payload: '',
      });
      expect(status).toBe(200);
      expect(body.data?.params).toEqual({ word: 'q', amount: 7 });
    });

    it('accepts a POST with no content type and no body', async () => {
      const { status, body } = await post({ url: `${ECHO}?amount=8` });
      expect(status).toBe(200);
      expect(body.data?.params).toEqual({ amount: 8 });
    });

    it.each([
      ['no content type', {}],
      ['a text/plain content type', { 'content-type': 'text/plain' }],
    ])('reads a JSON body sent with %s', async (_, headers) => {
      const payload = '{"params":{"word":"plain"}}';
      const response = await app.inject({ method: 'POST', url: ECHO, headers, payload });
      expect(response.statusCode).toBe(200);
      expect(response.json<Echoed>().data?.params).toEqual({ word: 'plain' });
    });

    it('refuses a `params` value that is not an object with 400', async () => {
      const { status, body } = await postJson<Echoed>(app, ECHO, { params: ['word'] });
      expect(status).toBe(400);
      expect(body.success).toBe(false);
    });

    it('delivers a transaction-mode action its parameters from the query string', async () => {
      const response = await app.inject({
        method: 'POST',
        url: `/api/tx-transfer?amount=5&to=${ADDRESS.toLowerCase()}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        serializedTransaction: '0x02f0',
        chainId: 43113,
        params: { functionName: 'transfer', args: { amount: 5, to: ADDRESS } },
      });
    });
  });

  describe('user address', () => {
    const lower = ADDRESS.toLowerCase();
    it.each([
      ['the x-user-address header', { headers: { 'x-user-address': lower } }],
      ['the x-wallet-address header', { headers: { 'x-wallet-address': lower } }],
      ['the userAddress query parameter', { url: `${ECHO}?userAddress=${lower}` }],
      [
        'body context (with params)',
        { payload: `{"params":{},"context":{"userAddress":"${lower}"}}` },
      ],
      [
        'body context (flat body)',
        { payload: `{"word":"x","context":{"userAddress":"${lower}"}}` },
      ],
    ])('is read from %s and normalised to its checksum', async (_, sent: Post) => {
      const { status, body } = await post(sent);
      expect(status).toBe(200);
      expect(body.data?.context.userAddress).toBe(ADDRESS);
    });

    it('accepts an address in capitals after 0x (valid per EIP-55) in its checksum form', async () => {
      const mixed = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
      const upper = `0x${mixed.slice(2).toUpperCase()}`;
      const { status, body } = await post({ headers: { 'x-user-address': upper } });
      expect(status).toBe(200);
      expect(body.data?.context.userAddress).toBe(mixed);
    });

    it('takes x-user-address, else x-wallet-address, else query, else body', async () => {
      const all: Post = {
        url: `${ECHO}?userAddress=${THIRD_ADDRESS}`,
        headers: { 'x-user-address': ADDRESS, 'x-wallet-address': OTHER_ADDRESS },
        payload: JSON.stringify({ context: { userAddress: FOURTH_ADDRESS } }),
      };
      const seen: unknown[] = [];
      for (const drop of [undefined, 'x-user-address', 'x-wallet-address', 'query']) {
        if (drop === 'query') all.url = ECHO;
        else if (drop) delete all.headers?.[drop];
        seen.push((await post(all)).body.data?.context.userAddress);
      }
      expect(seen).toEqual([ADDRESS, OTHER_ADDRESS, THIRD_ADDRESS, FOURTH_ADDRESS]);
    });

    it('leaves the address out of the context when none is sent', async () => {
      const { body } = await post({});
      expect(body.data?.context).not.toHaveProperty('userAddress');
      expect(body.data?.context.requestId).toEqual(expect.any(String));
    });

    it.each([
      ['too short', { headers: { 'x-user-address': '0x1234' } }],
      ['not an address', { headers: { 'x-user-address': 'alice.eth' } }],
      ['40 hex without 0x', { headers: { 'x-user-address': ADDRESS.slice(2) } }],
      [
        'a wrong mixed-case checksum',
        { headers: { 'x-user-address': ADDRESS.replace('E0F', 'e0F') } },
      ],
      ['malformed in x-wallet-address', { headers: { 'x-wallet-address': '0xnope' } }],
      ['malformed in the query', { url: `${ECHO}?userAddress=0x12` }],
      ['malformed in the body context', { payload: '{"context":{"userAddress":"0x12"}}' }],
    ])('answers 400 "userAddress must be a valid address" when %s', async (_, sent: Post) => {
      const { status, body } = await post(sent);
      expect(status).toBe(400);
      expect(body).toMatchObject({
        success: false,
        statusCode: 400,
        error: 'userAddress must be a valid address',
        data: { invalidParams: ['userAddress'] },
      });
    });
  });

  describe('chains', () => {
    it.each([
      ['the x-source-chain header', { headers: { 'x-source-chain': '43113' } }],
      ['the x-chain-id header', { headers: { 'x-chain-id': 'fuji' } }],
      ['the chainId query parameter', { url: `${ECHO}?chainId=Avalanche%20Fuji` }],
      ['the chain query parameter', { url: `${ECHO}?chain=fuji` }],
      ['the body context.sourceChain', { payload: '{"context":{"sourceChain":43113}}' }],
      ['a name in the body', { payload: '{"context":{"sourceChain":" AVALANCHE FUJI "}}' }],
    ])('reads the source chain from %s as its id', async (_, sent: Post) => {
      const { status, body } = await post(sent);
      expect(status).toBe(200);
      expect(body.data?.context.sourceChain).toBe(43113);
    });

    /**
     * The echo action runs on Fuji only: the source read first carries Fuji, every later one a
     * chain it refuses, so a 200 shows which source won.
     */
    it.each([
      [
        'x-source-chain',
        { 'x-source-chain': 'fuji', 'x-chain-id': '1' },
        '?chainId=2&chain=celo',
        4,
      ],
      ['x-chain-id', { 'x-chain-id': '43113' }, '?chainId=2&chain=celo', 4],
      ['the chainId query parameter', {}, '?chainId=fuji&chain=celo', 4],
      ['the chain query parameter', {}, '?chain=fuji', 4],
      ['the body', {}, '', 43113],
    ])('takes %s over the sources after it', async (_, headers, query, bodyChain) => {
      const { status, body } = await post({
        url: `${ECHO}${query}`,
        headers,
        payload: JSON.stringify({ context: { sourceChain: bodyChain } }),
      });
      expect(status).toBe(200);
      expect(body.data?.context.sourceChain).toBe(43113);
    });

    it.each([
      ['the x-destination-chain header', { headers: { 'x-destination-chain': 'fuji' } }],
      ['the destinationChain query parameter', { url: `${ECHO}?destinationChain=43113` }],
      ['the body context', { payload: '{"context":{"destinationChain":"Avalanche Fuji"}}' }],
    ])('reads the destination chain from %s', async (_, sent: Post) => {
      const { body } = await post(sent);
      expect(body.data?.context.destinationChain).toBe(43113);
    });

    it.each([
      ['x-destination-chain', { 'x-destination-chain': 'fuji' }, '?destinationChain=2', 3],
      ['the query', {}, '?destinationChain=fuji', 3],
      ['the body', {}, '', 43113],
    ])('takes %s over the destination sources after it', async (_, headers, query, bodyChain) => {
      const { status, body } = await post({
        url: `${ECHO}${query}`,
        headers,
        payload: JSON.stringify({ context: { destinationChain: bodyChain } }),
      });
      expect(status).toBe(200);
      expect(body.data?.context.destinationChain).toBe(43113);
    });

    it.each([
      ['x-source-chain "1.5"', { headers: { 'x-source-chain': '1.5' } }, 'sourceChain'],
      ['x-source-chain "narnia"', { headers: { 'x-source-chain': 'narnia' } }, 'sourceChain'],
      ['x-chain-id "-5"', { headers: { 'x-chain-id': '-5' } }, 'sourceChain'],
      ['query chainId "0x1"', { url: `${ECHO}?chainId=0x1` }, 'sourceChain'],
      [
        'body context.sourceChain 1.5',
        { payload: '{"context":{"sourceChain":1.5}}' },
        'sourceChain',
      ],
      [
        'x-destination-chain "2.5"',
        { headers: { 'x-destination-chain': '2.5' } },
        'destinationChain',
      ],
      ['query destinationChain "abc"', { url: `${ECHO}?destinationChain=abc` }, 'destinationChain'],
    ])('answers 400 for a chain that is no id or known name: %s', async (_, sent: Post, name) => {
      const { status, body } = await post(sent);
      expect(status).toBe(400);
      expect(body).toMatchObject({
        success: false,
        statusCode: 400,
        data: { invalidParams: [name] },
      });
      expect(body.error).toMatch(new RegExp(`^${name} `));
    });
  });

  describe('an action that requires the user', () => {
    it('answers 400 "x-user-address header is required" without an address', async () => {
      const { status, body } = await post({ url: WHO });
      expect(status).toBe(400);
      expect(body).toMatchObject({
        success: false,
        statusCode: 400,
        error: 'x-user-address header is required',
      });
    });

    it.each([
      ['x-user-address', { url: WHO, headers: { 'x-user-address': ADDRESS } }],
      ['x-wallet-address', { url: WHO, headers: { 'x-wallet-address': ADDRESS } }],
      ['the query', { url: `${WHO}?userAddress=${ADDRESS}` }],
      ['the body context', { url: WHO, payload: `{"context":{"userAddress":"${ADDRESS}"}}` }],
    ])('runs with the address from %s and hands it to the handler', async (_, sent: Post) => {
      const { status, body } = await post(sent);
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ userAddress: ADDRESS });
    });

    it('answers the malformed-address 400 rather than the missing one', async () => {
      const { status, body } = await post({ url: WHO, headers: { 'x-user-address': '0x1' } });
      expect(status).toBe(400);
      expect(body.error).toBe('userAddress must be a valid address');
    });
  });
});
