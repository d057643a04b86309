import type { DynamicAction, ExecutionResponse } from '../contract/action.types';
import type { FetchInit, FetchLike } from './client.types';
import { executeDynamic, intentOf } from './execute-dynamic';
import { reportTransaction, transactionOutcome } from './report-transaction';

const INTENT = 'Q2hlY2tzIHRoZSBpbnRlbnQgaGVhZGVy';
const HASH = `0x${'ab'.repeat(32)}`;

interface Call {
  url: string;
  init: FetchInit;
}

function fakeFetch(body: unknown, status = 200, headers: Record<string, string> = {}) {
  const calls: Call[] = [];
  const fetch: FetchLike = (url, init) => {
    calls.push({ url, init });
    return Promise.resolve({
      status,
      text: () => Promise.resolve(JSON.stringify(body)),
      headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    });
  };
  return { fetch, calls };
}

const view = {
  intent: INTENT,
  action: '/api/send',
  chainId: 43113,
  status: 'submitted',
  hash: HASH,
  updatedAt: 1,
};
const envelope = {
  success: true,
  data: view,
  message: 'The transaction is on the chain, waiting for its confirmations',
  statusCode: 200,
};

describe('reportTransaction', () => {
  it('POSTs {hash} as JSON to /api/transactions/<intent> and answers the envelope', async () => {
    const { fetch, calls } = fakeFetch(envelope);
    const answer = await reportTransaction(INTENT, HASH, {
      baseUrl: 'https://svc.example/',
      fetch,
      headers: { 'X-Trace': '1' },
    });
    expect(answer).toEqual(envelope);
    expect(calls).toEqual([
      {
        url: `https://svc.example/api/transactions/${INTENT}`,
        init: {
          method: 'POST',
          headers: { 'x-trace': '1', 'content-type': 'application/json' },
          body: JSON.stringify({ hash: HASH }),
          signal: undefined,
        },
      },
    ]);
  });

  it('passes a refusal through as the service answered it (409 on a settled intent)', async () => {
    const refusal = {
      success: false,
      error: 'settled',
      message: 'm',
      statusCode: 409,
      data: { code: 'INTENT_SETTLED' },
    };
    const { fetch } = fakeFetch(refusal, 409);
    expect(
      await reportTransaction(INTENT, HASH, { baseUrl: 'https://svc.example', fetch }),
    ).toEqual(refusal);
  });

  it('never throws: a network failure is an envelope with statusCode 0', async () => {
    const fetch: FetchLike = () => Promise.reject(new Error('offline'));
    expect(
      await reportTransaction(INTENT, HASH, { baseUrl: 'https://svc.example', fetch }),
    ).toMatchObject({
      success: false,
      statusCode: 0,
      error: 'Network request failed: offline',
    });
  });

  it('refuses an answer that is no envelope', async () => {
    const { fetch } = fakeFetch({ hello: 'world' });
    expect(
      await transactionOutcome(INTENT, { baseUrl: 'https://svc.example', fetch }),
    ).toMatchObject({
      success: false,
      statusCode: 0,
    });
  });
});

describe('transactionOutcome', () => {
  it('GETs the intent, its id escaped into the path', async () => {
    const { fetch, calls } = fakeFetch(envelope);
    await transactionOutcome('a/b', { baseUrl: 'https://svc.example', fetch });
    expect(calls[0]).toMatchObject({
      url: 'https://svc.example/api/transactions/a%2Fb',
      init: { method: 'GET' },
    });
  });
});

describe('intentOf', () => {
  const action: DynamicAction = {
    type: 'dynamic',
    label: 'Send',
    chains: { source: 43113 },
    path: '/api/send',
  };
  const transaction: ExecutionResponse = { serializedTransaction: '0x02f8', chainId: 43113 };

  it('reads the X-Action-Intent of a transaction answer, the answer itself unchanged', async () => {
    const { fetch } = fakeFetch(transaction, 200, { 'x-action-intent': INTENT });
    const answer = await executeDynamic(action, {}, { baseUrl: 'https://svc.example', fetch });
    expect(answer).toEqual(transaction);
    expect(intentOf(answer)).toBe(INTENT);
  });

  it('is undefined without the header, for an error, or with a fetch that exposes no headers', async () => {
    const { fetch } = fakeFetch(transaction);
    expect(
      intentOf(await executeDynamic(action, {}, { baseUrl: 'https://svc.example', fetch })),
    ).toBeUndefined();
    const refused = fakeFetch({ error: 'no', code: 'BAD_REQUEST' }, 400, {
      'x-action-intent': INTENT,
    });
    expect(
      intentOf(
        await executeDynamic(action, {}, { baseUrl: 'https://svc.example', fetch: refused.fetch }),
      ),
    ).toBeUndefined();
    const bare: FetchLike = () =>
      Promise.resolve({ status: 200, text: () => Promise.resolve(JSON.stringify(transaction)) });
    expect(
      intentOf(await executeDynamic(action, {}, { baseUrl: 'https://svc.example', fetch: bare })),
    ).toBeUndefined();
  });
});
