import type { DynamicAction } from '../contract/action.types';
import type { FetchLike } from './client.types';
import { executeDynamic } from './execute-dynamic';
import { isDataResponse } from './response-kinds';

const dataAction: DynamicAction = {
  type: 'dynamic',
  label: 'Calculate',
  chains: { source: 43113 },
  path: '/api/calculator',
  responseType: 'data',
};
const txAction: DynamicAction = { ...dataAction, path: '/api/send', responseType: undefined };
const envelope = { success: true, data: { result: 3 }, statusCode: 200 };

/** A fetch answering `text` as the body. */
const answering =
  (text: string, status = 200): FetchLike =>
  () =>
    Promise.resolve({ status, text: () => Promise.resolve(text) });

describe('executeDynamic failures', () => {
  describe('client failures become a data-mode envelope with statusCode 0', () => {
    const run = (fetch: FetchLike, action: DynamicAction = dataAction) =>
      executeDynamic(action, { a: 1 }, { baseUrl: 'http://h', fetch });

    it('when fetch throws', async () => {
      const result = await run(() => Promise.reject(new TypeError('fetch failed')));
      expect(result).toEqual({
        success: false,
        error: 'Network request failed: fetch failed',
        message: expect.any(String),
        statusCode: 0,
      });
      expect(isDataResponse(result)).toBe(true);
    });

    it('when the request is aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      // Like the real fetch: an aborted signal rejects with an AbortError DOMException.
      const fetch: FetchLike = (_url, init) =>
        init.signal?.aborted
          ? Promise.reject(new DOMException('This operation was aborted', 'AbortError'))
          : Promise.resolve({ status: 200, text: () => Promise.resolve('{}') });
      const result = await executeDynamic(
        txAction,
        {},
        { baseUrl: 'http://h', fetch, signal: controller.signal },
      );
      expect(result).toMatchObject({
        success: false,
        statusCode: 0,
        error: 'The request was aborted',
      });
    });

    it('when the request times out', async () => {
      const timeout = new DOMException('signal timed out', 'TimeoutError');
      const result = await run(() => Promise.reject(timeout));
      expect(result).toMatchObject({ statusCode: 0, error: 'The request timed out' });
    });

    it('when reading the body fails', async () => {
      const result = await run(() =>
        Promise.resolve({ status: 200, text: () => Promise.reject(new Error('socket hang up')) }),
      );
      expect(result).toMatchObject({ statusCode: 0, error: expect.stringContaining('hang up') });
    });

    it('when the body is not JSON', async () => {
      const result = await run(answering('<html>Bad gateway</html>', 502), txAction);
      expect(result).toMatchObject({ success: false, statusCode: 0 });
      expect(result).toHaveProperty('error', expect.stringMatching(/not JSON \(HTTP 502\)/));
    });

    it('when the JSON is none of the response kinds', async () => {
      const result = await run(answering('[1,2]'), txAction);
      expect(result).toMatchObject({ success: false, statusCode: 0 });
    });
  });

  describe('default fetch', () => {
    const original = globalThis.fetch;
    afterEach(() => {
      globalThis.fetch = original;
    });

    it('uses the global fetch when none is given', async () => {
      const spy = jest.fn<Promise<Response>, [string, RequestInit]>(() =>
        Promise.resolve(new Response(JSON.stringify(envelope), { status: 200 })),
      );
      globalThis.fetch = spy as unknown as typeof fetch;
      const result = await executeDynamic(dataAction, { a: 1 }, { baseUrl: 'http://h' });
      expect(result).toEqual(envelope);
      expect(spy).toHaveBeenCalledWith('http://h/api/calculator', expect.anything());
    });

    it('answers statusCode 0 when the runtime has no fetch', async () => {
      Reflect.deleteProperty(globalThis, 'fetch');
      const result = await executeDynamic(dataAction, {}, { baseUrl: 'http://h' });
      expect(result).toMatchObject({ success: false, statusCode: 0, error: expect.any(String) });
    });
  });
});
