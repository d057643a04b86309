import type { DynamicAction, ExecutionResponse } from '../contract/action.types';
import type { FetchInit, FetchLike } from './client.types';
import { executeDynamic } from './execute-dynamic';
import { isDataResponse, isTransactionError, isTransactionResponse } from './response-kinds';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

const dataAction: DynamicAction & { responseType: 'data' } = {
  type: 'dynamic',
  label: 'Calculate',
  chains: { source: 43113 },
  path: '/api/calculator',
  responseType: 'data',
};
const txAction: DynamicAction = {
  type: 'dynamic',
  label: 'Send',
  chains: { source: 43113 },
  path: '/api/send',
};

interface Call {
  url: string;
  init: FetchInit;
}

/** A fetch that records what it is given and answers `body` (serialised unless already text). */
function fakeFetch(body: unknown, status = 200): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: FetchLike = (url, init) => {
    calls.push({ url, init });
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return Promise.resolve({ status, text: () => Promise.resolve(text) });
  };
  return { fetch, calls };
}

const envelope = { success: true, data: { result: 3 }, message: '1 + 2 = 3', statusCode: 200 };
const transaction: ExecutionResponse = {
  serializedTransaction: '0x02f8',
  chainId: 43113,
  params: { functionName: 'transfer', args: { amount: 5 } },
};

describe('executeDynamic', () => {
  describe('data mode', () => {
    it('POSTs `{params}` as JSON to baseUrl + path with the context headers', async () => {
      const { fetch, calls } = fakeFetch(envelope);
      const signal = new AbortController().signal;
      const values = { operation: 'add', a: 1, b: 2 };
      const result = await executeDynamic(dataAction, values, {
        baseUrl: 'https://actions.example/',
        userAddress: ADDRESS,
        sourceChain: 43113,
        fetch,
        signal,
      });
      expect(result).toEqual(envelope);
      expect(calls).toHaveLength(1);
      const [{ url, init }] = calls;
      expect(url).toBe('https://actions.example/api/calculator');
      expect(init.method).toBe('POST');
      expect(init.signal).toBe(signal);
      expect(init.headers).toEqual({
        'content-type': 'application/json',
        'x-user-address': ADDRESS,
        'x-source-chain': '43113',
      });
      expect(JSON.parse(init.body ?? '')).toEqual({ params: values });
    });

    it('leaves out the context headers it was not given', async () => {
      const { fetch, calls } = fakeFetch(envelope);
      await executeDynamic(dataAction, {}, { baseUrl: 'http://h', fetch });
      expect(calls[0].init.headers).toEqual({ 'content-type': 'application/json' });
      expect(JSON.parse(calls[0].init.body ?? '')).toEqual({ params: {} });
    });

    it('adds extra headers, the contract headers replacing any spelling of theirs', async () => {
      const { fetch, calls } = fakeFetch(envelope);
      await executeDynamic(
        dataAction,
        {},
        {
          baseUrl: 'http://h',
          userAddress: ADDRESS,
          fetch,
          headers: {
            Authorization: 'Bearer t',
            'Content-Type': 'text/plain',
            'X-User-Address': 'x',
          },
        },
      );
      expect(calls[0].init.headers).toEqual({
        authorization: 'Bearer t',
        'content-type': 'application/json',
        'x-user-address': ADDRESS,
      });
    });

    it('sends chain names as they were given, destination included', async () => {
      const { fetch, calls } = fakeFetch(envelope);
      await executeDynamic(
        dataAction,
        {},
        { baseUrl: 'http://h', sourceChain: ' Avalanche Fuji ', destinationChain: 'celo', fetch },
      );
      expect(calls[0].init.headers).toEqual({
        'content-type': 'application/json',
        'x-source-chain': ' Avalanche Fuji ',
        'x-destination-chain': 'celo',
      });
    });

    it('returns a server error envelope unchanged, status included', async () => {
      const failure = { success: false, error: 'a is required', statusCode: 400 };
      const { fetch } = fakeFetch(failure, 400);
      await expect(executeDynamic(dataAction, {}, { baseUrl: 'http://h', fetch })).resolves.toEqual(
        failure,
      );
    });

    it('refuses a transaction from a data-mode action as a client failure', async () => {
      const { fetch } = fakeFetch(transaction);
      const result = await executeDynamic(dataAction, {}, { baseUrl: 'http://h', fetch });
      expect(result).toMatchObject({ success: false, statusCode: 0 });
      expect(result.error).toMatch(/unexpected response shape \(HTTP 200\)/);
    });
  });

  describe('transaction mode', () => {
    it('POSTs the values, userAddress and chainId in the query string, with no body', async () => {
      const { fetch, calls } = fakeFetch(transaction);
      const result = await executeDynamic(
        txAction,
        { to: ADDRESS, amount: 1.5, urgent: true, memo: 'a&b c', skipped: undefined, gone: null },
        { baseUrl: 'https://actions.example', userAddress: ADDRESS, sourceChain: 43113, fetch },
      );
      expect(result).toEqual(transaction);
      const [{ url, init }] = calls;
      const parsed = new URL(url);
      expect(parsed.origin + parsed.pathname).toBe('https://actions.example/api/send');
      expect(Object.fromEntries(parsed.searchParams)).toEqual({
        to: ADDRESS,
        amount: '1.5',
        urgent: 'true',
        memo: 'a&b c',
        userAddress: ADDRESS,
        chainId: '43113',
      });
      expect(init.method).toBe('POST');
      expect(init.body).toBeUndefined();
      expect(init.headers).toEqual({ 'x-user-address': ADDRESS, 'x-wallet-address': ADDRESS });
    });

    it('puts chain names in the query as they were given', async () => {
      const { fetch, calls } = fakeFetch(transaction);
      await executeDynamic(
        txAction,
        {},
        { baseUrl: 'http://h', sourceChain: 'fuji', destinationChain: 43114, fetch },
      );
      expect(Object.fromEntries(new URL(calls[0].url).searchParams)).toEqual({
        chainId: 'fuji',
        destinationChain: '43114',
      });
    });

    it('sends no query string and no headers when there is nothing to send', async () => {
      const { fetch, calls } = fakeFetch(transaction);
      await executeDynamic(txAction, {}, { baseUrl: 'http://h', fetch });
      expect(calls[0].url).toBe('http://h/api/send');
      expect(calls[0].init.headers).toEqual({});
    });

    it('does not let a parameter named userAddress or chainId replace the context', async () => {
      const { fetch, calls } = fakeFetch(transaction);
      await executeDynamic(
        txAction,
        { userAddress: '0xevil', chainId: 1 },
        { baseUrl: 'http://h', userAddress: ADDRESS, sourceChain: 43113, fetch },
      );
      const query = new URL(calls[0].url).searchParams;
      expect(query.getAll('userAddress')).toEqual([ADDRESS]);
      expect(query.getAll('chainId')).toEqual(['43113']);
    });

    it('returns the transaction-mode error body as it came', async () => {
      const error = { error: 'amount is required', code: 'VALIDATION_ERROR' };
      const { fetch } = fakeFetch(error, 400);
      const result = await executeDynamic(txAction, {}, { baseUrl: 'http://h', fetch });
      expect(result).toEqual(error);
      expect(isTransactionError(result)).toBe(true);
      expect(isTransactionResponse(result)).toBe(false);
      expect(isDataResponse(result)).toBe(false);
    });

    it('returns a data envelope from outside any action (unknown path) as it came', async () => {
      const notFound = { success: false, error: 'Not found', statusCode: 404 };
      const { fetch } = fakeFetch(notFound, 404);
      const result = await executeDynamic(txAction, {}, { baseUrl: 'http://h', fetch });
      expect(result).toEqual(notFound);
    });
  });
});
