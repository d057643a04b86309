import { checkRpcAnswers, RpcAnswerError } from './rpc-answers';

const request = (method: string, id = 1): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params: [] });
const batch = (...methods: string[]): string =>
  JSON.stringify(methods.map((method, i) => ({ jsonrpc: '2.0', id: i + 1, method, params: [] })));
const answer = (result: unknown, id = 1): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  result,
});

const BLOCK = {
  number: '0x3e8',
  timestamp: '0x6553f100',
  hash: `0x${'ab'.repeat(32)}`,
  baseFeePerGas: '0x3b9aca00',
  gasLimit: '0x1c9c380',
  gasUsed: '0x0',
  transactions: [],
};

/** The error checkRpcAnswers throws, or undefined when it accepts the answer. */
function problem(body: string, reply: unknown): RpcAnswerError | undefined {
  try {
    checkRpcAnswers(body, typeof reply === 'string' ? reply : JSON.stringify(reply));
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(RpcAnswerError);
    return error as RpcAnswerError;
  }
}

describe('checkRpcAnswers', () => {
  it.each<[string, unknown]>([
    ['eth_getBalance', '0xde0b6b3a7640000'],
    ['eth_getBalance', '0x0'],
    ['eth_blockNumber', '0x00ff'],
    ['eth_call', '0x'],
    ['eth_call', `0x${'00'.repeat(32)}`],
    ['eth_getCode', '0x6080'],
    ['eth_getBlockByNumber', BLOCK],
    ['eth_getBlockByNumber', null],
    ['eth_getTransactionReceipt', null],
    ['eth_getTransactionReceipt', { blockNumber: '0x1', status: '0x1', gasUsed: '0x5208' }],
    ['eth_somethingElse', { any: 'shape' }],
  ])('accepts %s answering %j', (method, result) => {
    expect(problem(request(method), answer(result))).toBeUndefined();
  });

  it.each<[string, unknown]>([
    ['eth_getBlockByNumber', '0x0'],
    ['eth_getBlockByNumber', {}],
    ['eth_getBlockByNumber', { ...BLOCK, timestamp: undefined }],
    ['eth_getBlockByNumber', { ...BLOCK, number: 'zz' }],
    ['eth_getBlockByNumber', { ...BLOCK, gasLimit: 42 }],
    ['eth_call', null],
    ['eth_call', {}],
    ['eth_call', 'zz'],
    ['eth_call', '0x123'],
    ['eth_getBalance', 'abc'],
    ['eth_getBalance', null],
    ['eth_getBalance', 12],
    ['eth_getBalance', '0x'],
    ['eth_getBalance', `0x1${'0'.repeat(64)}`],
    ['eth_estimateGas', {}],
    ['eth_getTransactionCount', '7'],
    ['eth_getTransactionReceipt', { status: '0x1' }],
    ['eth_getTransactionReceipt', { blockNumber: '0x1', status: 'ok' }],
    ['eth_getTransactionReceipt', '0x1'],
  ])('refuses %s answering %j, naming the method', (method, result) => {
    expect(problem(request(method), answer(result))?.shortMessage).toBe(
      `The node's answer to ${method} has an unexpected shape`,
    );
  });

  it('refuses an answer with no result and no error, and an answer that is not JSON', () => {
    expect(problem(request('eth_call'), { jsonrpc: '2.0', id: 1 })).toBeDefined();
    expect(problem(request('eth_call'), '<html>bad gateway</html>')).toBeDefined();
  });

  it('lets JSON-RPC errors through for viem to report', () => {
    const error = { jsonrpc: '2.0', id: 1, error: { code: 3, message: 'execution reverted' } };
    expect(problem(request('eth_call'), error)).toBeUndefined();
    expect(problem(batch('eth_call', 'eth_getBalance'), error)).toBeUndefined();
  });

  it('checks each answer of a batch against the method of its id, in any order', () => {
    const body = batch('eth_getBalance', 'eth_call');
    expect(problem(body, [answer('0x', 2), answer('0x1', 1)])).toBeUndefined();
    expect(problem(body, [answer('0x', 2), answer('0x', 1)])?.shortMessage).toMatch(
      /eth_getBalance/,
    );
  });

  it('refuses a batch answer with missing, unknown or repeated ids', () => {
    const body = batch('eth_getBalance', 'eth_getBalance');
    expect(problem(body, [answer('0x1', 1)])).toBeDefined();
    expect(problem(body, [answer('0x1', 1), answer('0x1', 3)])).toBeDefined();
    expect(problem(body, [answer('0x1', 1), answer('0x1', 1)])).toBeDefined();
    expect(problem(body, answer('0x1', 1))).toBeDefined();
  });

  it('does not check what it cannot read as a JSON-RPC request', () => {
    expect(() => checkRpcAnswers(undefined, 'anything')).not.toThrow();
    expect(() => checkRpcAnswers('not json', 'anything')).not.toThrow();
  });

  it('cuts an oversized error (message and revert data, nested too) and passes the rest as sent', () => {
    const huge = `0x08c379a0${'ab'.repeat(1_000_000)}`;
    const reply = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: { code: 3, message: 'x'.repeat(100_000), data: huge },
    });
    const passed = JSON.parse(checkRpcAnswers(request('eth_call'), reply)) as {
      error: { message: string; data: string };
    };
    expect(passed.error.message).toHaveLength(1_000);
    expect(passed.error.data.length).toBeLessThan(10_000);
    expect(huge.startsWith(passed.error.data)).toBe(true);
    const nested = JSON.stringify([
      { jsonrpc: '2.0', id: 1, error: { code: 3, message: 'no', data: { data: huge } } },
      answer('0x1', 2),
    ]);
    const cut = JSON.parse(checkRpcAnswers(batch('eth_call', 'eth_getBalance'), nested)) as [
      { error: { data: { data: string } } },
      unknown,
    ];
    expect(cut[0].error.data.data.length).toBeLessThan(10_000);
    expect(cut[1]).toEqual(answer('0x1', 2));
    const small = JSON.stringify(answer('0x1'));
    expect(checkRpcAnswers(request('eth_getBalance'), small)).toBe(small);
  });
});
