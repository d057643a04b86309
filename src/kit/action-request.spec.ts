import type { FastifyRequest } from 'fastify';
import { ActionException } from '../contract/action.exception';
import { readActionRequest, userBeforeBody } from './action-request';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const OTHER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

interface Fake {
  body?: unknown;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
}

const request = ({ body, query = {}, headers = {} }: Fake): FastifyRequest =>
  ({ id: 'req-1', body, query, headers }) as unknown as FastifyRequest;

const read = (fake: Fake) => readActionRequest(request(fake));

/** The 400 a malformed request gives, with the parameter names it reports. */
function failure(fake: Fake): { status: number; error: string; names: unknown } {
  try {
    read(fake);
  } catch (thrown) {
    if (!(thrown instanceof ActionException)) throw thrown;
    const data = thrown.details.data as { invalidParams?: unknown } | undefined;
    return { status: thrown.getStatus(), error: thrown.error, names: data?.invalidParams };
  }
  throw new Error('expected the request to be refused');
}

describe('readActionRequest: parameters', () => {
  it('reads `params` from the body, else the flat body, then the query', () => {
    const nested = read({ body: { params: { a: 1 }, b: 2 }, query: { b: '3', c: '4' } });
    expect([nested.input('a'), nested.input('b'), nested.input('c')]).toEqual([1, '3', '4']);
    const flat = read({ body: { a: 1, b: 2 }, query: { b: '3', c: '4' } });
    expect([flat.input('a'), flat.input('b'), flat.input('c')]).toEqual([1, 2, '4']);
  });

  it('lets the query fill values the body leaves null or blank', () => {
    const req = read({ body: { params: { a: null, b: '' } }, query: { a: 'qa', b: 'qb' } });
    expect([req.input('a'), req.input('b')]).toEqual(['qa', 'qb']);
  });

  it('reads everything from the query when there is no body', () => {
    const req = read({ query: { a: '1' } });
    expect(req.input('a')).toBe('1');
    expect(req.input('missing')).toBeUndefined();
  });

  it('never reads inherited keys as parameters', () => {
    const req = read({ body: { params: {} } });
    expect(req.input('constructor')).toBeUndefined();
    expect(req.input('toString')).toBeUndefined();
    expect(req.input('__proto__')).toBeUndefined();
  });

  it.each([[[1, 2]], [42], ['text'], [true], [null]])(
    'refuses the non-object body %j with a 400',
    (body) => {
      expect(failure({ body }).status).toBe(400);
    },
  );

  it('refuses a `params` that is not an object, naming it', () => {
    expect(failure({ body: { params: 'a=1' } })).toMatchObject({ status: 400, names: ['params'] });
  });
});

describe('readActionRequest: context', () => {
  it('hands over the request id and nothing else when no context is sent', () => {
    expect(read({}).context).toEqual({
      requestId: 'req-1',
      userAddress: undefined,
      sourceChain: undefined,
      destinationChain: undefined,
    });
  });

  it('reads every alias in order, normalising the address to its checksum', () => {
    const sources: Fake = {
      headers: {
        'x-user-address': ADDRESS.toLowerCase(),
        'x-wallet-address': OTHER,
        'x-source-chain': '1',
        'x-chain-id': '2',
        'x-destination-chain': '10',
      },
      query: { userAddress: OTHER, chainId: '3', chain: 'celo', destinationChain: '11' },
      body: { context: { userAddress: OTHER, sourceChain: 4, destinationChain: 12 } },
    };
    const seen: unknown[] = [];
    const drops = [
      [],
      ['x-user-address', 'x-source-chain', 'x-destination-chain'],
      ['x-wallet-address', 'x-chain-id'],
      ['chainId', 'destinationChain'],
      ['query'],
    ];
    for (const drop of drops) {
      for (const name of drop) {
        if (name === 'query') sources.query = {};
        else if (name.startsWith('x-')) delete sources.headers?.[name];
        else delete sources.query?.[name];
      }
      const { userAddress, sourceChain, destinationChain } = read(sources).context;
      seen.push([userAddress, sourceChain, destinationChain]);
    }
    expect(seen).toEqual([
      [ADDRESS, 1, 10],
      [OTHER, 2, 11],
      [OTHER, 3, 11],
      [OTHER, 42220, 12],
      [OTHER, 4, 12],
    ]);
  });

  it('skips a chain sent blank or as spaces and reads the next source', () => {
    const { context } = read({
      headers: { 'x-source-chain': '   ', 'x-chain-id': '', 'x-destination-chain': ' ' },
      query: { chainId: '43113' },
      body: { context: { destinationChain: 'avalanche' } },
    });
    expect([context.sourceChain, context.destinationChain]).toEqual([43113, 43114]);
  });

  it.each([
    ['a short address', { 'x-user-address': '0x12' }],
    ['a wrong mixed-case checksum', { 'x-wallet-address': ADDRESS.replace('E0F', 'e0F') }],
    ['a name', { 'x-user-address': 'vitalik.eth' }],
  ])('refuses %s with "userAddress must be a valid address"', (_, headers) => {
    expect(failure({ headers })).toEqual({
      status: 400,
      error: 'userAddress must be a valid address',
      names: ['userAddress'],
    });
  });

  it.each([
    ['1.5', 'sourceChain', { headers: { 'x-source-chain': '1.5' } }],
    ['abc', 'sourceChain', { query: { chainId: 'abc' } }],
    ['-1', 'sourceChain', { headers: { 'x-chain-id': '-1' } }],
    ['2.5 in the body', 'sourceChain', { body: { context: { sourceChain: 2.5 } } }],
    ['0 in the body', 'sourceChain', { body: { context: { sourceChain: 0 } } }],
    ['an object in the body', 'sourceChain', { body: { context: { sourceChain: { id: 1 } } } }],
    ['x', 'destinationChain', { headers: { 'x-destination-chain': 'x' } }],
  ])('refuses the chain %s, naming %s', (_, name, fake: Fake) => {
    expect(failure(fake)).toMatchObject({ status: 400, names: [name] });
  });

  it.each([
    ['fuji', 43113],
    ['Avalanche Fuji', 43113],
    ['  AVALANCHE FUJI TESTNET  ', 43113],
    ['Ethereum Mainnet', 1],
    ['ethereum', 1],
    ['sepolia testnet', 11155111],
    ['Avalanche C-Chain', 43114],
    ['celo alfajores', 44787],
    ['MantleSepoliaTestnet', 5003],
    ['mantle mainnet', 5000],
    ['baseSepolia', 84532],
    ['Base Sepolia Testnet', 84532],
    ['base', 8453],
    ['Soshi', 3278],
    [' 43113 ', 43113],
  ])('reads the chain %j as chain %i wherever it is sent', (text, id) => {
    const { context } = read({
      headers: { 'x-chain-id': text },
      query: {},
      body: { context: { destinationChain: text } },
    });
    expect([context.sourceChain, context.destinationChain]).toEqual([id, id]);
    expect(read({ query: { chain: text } }).context.sourceChain).toBe(id);
  });

  it('refuses an unknown chain name with a 400 that names it', () => {
    expect(failure({ headers: { 'x-chain-id': 'narnia' } })).toEqual({
      status: 400,
      error: "sourceChain 'narnia' is not a known chain",
      names: ['sourceChain'],
    });
    expect(failure({ query: { destinationChain: 'Base Goerli' } }).error).toBe(
      "destinationChain 'Base Goerli' is not a known chain",
    );
  });

  it('refuses a megabyte of chain text, quoting only its start', () => {
    const huge = `fuji${'x'.repeat(1_000_000)}`;
    const result = failure({ body: { context: { sourceChain: huge } } });
    expect(result.error).toBe(`sourceChain '${huge.slice(0, 40)}…' is not a known chain`);
  });

  it('reports a bad address and a bad chain together', () => {
    const result = failure({ headers: { 'x-user-address': '0x1', 'x-source-chain': 'one' } });
    expect(result.names).toEqual(['userAddress', 'sourceChain']);
    expect(result.error).toMatch(/^userAddress must be a valid address, sourceChain /);
  });
});

describe('userBeforeBody: the user the rate limits may count before the body', () => {
  const sources: Fake[] = [
    { headers: { 'x-user-address': ADDRESS.toLowerCase() } },
    { headers: { 'x-wallet-address': ADDRESS } },
    { query: { userAddress: ADDRESS } },
    { headers: { 'x-user-address': ADDRESS }, body: { context: { userAddress: OTHER } } },
    { headers: { 'x-user-address': '', 'x-wallet-address': ADDRESS } },
    { query: { userAddress: ADDRESS }, body: { context: { userAddress: OTHER } } },
  ];

  it.each(sources)('names the user readActionRequest reads: %j', (fake) => {
    const early = userBeforeBody(request(fake));
    expect(early).toEqual({ user: ADDRESS });
    expect(early?.user).toBe(read(fake).context.userAddress);
  });

  it('is undefined when only the body can name the user', () => {
    expect(userBeforeBody(request({ body: { context: { userAddress: OTHER } } }))).toBeUndefined();
    expect(userBeforeBody(request({ headers: { 'x-user-address': '' } }))).toBeUndefined();
  });

  it('names no user when the one named is not an address (the request is a 400)', () => {
    const fake = {
      headers: { 'x-user-address': 'nobody' },
      body: { context: { userAddress: OTHER } },
    };
    expect(userBeforeBody(request(fake))).toEqual({ user: undefined });
    expect(failure(fake).names).toEqual(['userAddress']);
  });
});
