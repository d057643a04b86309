import { Logger } from '@nestjs/common';
import { ResultCache, UpstreamError, UpstreamRefusal } from '../../kit';
import { MemoryCacheStore } from '../../outbound/cache/cache.store';
import type { ExternalHttp } from '../../outbound/http/external-http';
import { PriceClient } from './price.client';

/** Stands in for the network: one answer for every call, records every URL asked. */
class FakeHttp {
  readonly urls: URL[] = [];
  answer: unknown = { ethereum: { usd: 2000.5 }, 'usd-coin': { usd: 1 } };

  getJson(url: string | URL): Promise<unknown> {
    this.urls.push(new URL(url));
    const answer = this.answer;
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(answer);
  }
}

describe('PriceClient', () => {
  let http: FakeHttp;
  const client = (apiUrl?: string): PriceClient =>
    new PriceClient(
      http as unknown as ExternalHttp,
      new ResultCache(new MemoryCacheStore(), { ttlSeconds: 300, prefix: 't:' }),
      { apiUrl },
    );

  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  beforeEach(() => {
    http = new FakeHttp();
  });

  it('asks the simple-price API for the ids in USD, keeping the query the URL carries', async () => {
    const prices = client('https://prices.example/simple/price?x_cg_demo_api_key=k');
    const quote = await prices.usd(['usd-coin', 'ethereum', 'usd-coin']);
    expect(quote).toEqual({ prices: { ethereum: 2000.5, 'usd-coin': 1 }, cached: false });
    const [url] = http.urls;
    expect(url.pathname).toBe('/simple/price');
    expect(url.searchParams.get('ids')).toBe('ethereum,usd-coin');
    expect(url.searchParams.get('vs_currencies')).toBe('usd');
    expect(url.searchParams.get('x_cg_demo_api_key')).toBe('k');
  });

  it('answers nothing, without a call, when no API is configured or nothing is asked', async () => {
    expect(await client(undefined).usd(['ethereum'])).toBeUndefined();
    expect(await client('https://prices.example/p').usd([])).toBeUndefined();
    expect(http.urls).toHaveLength(0);
  });

  it('caches per set of ids, in any order', async () => {
    const prices = client('https://prices.example/p');
    await prices.usd(['ethereum', 'usd-coin']);
    expect(await prices.usd(['usd-coin', 'ethereum'])).toMatchObject({ cached: true });
    expect(http.urls).toHaveLength(1);
    await prices.usd(['ethereum']);
    expect(http.urls).toHaveLength(2);
  });

  it('keeps only finite, non-negative USD prices of the ids asked for', async () => {
    http.answer = {
      a: { usd: 3 },
      b: { usd: '3' },
      c: { usd: -1 },
      d: { eur: 2 },
      e: null,
      f: { usd: 0 },
      other: { usd: 9 },
    };
    const quote = await client('https://prices.example/p').usd(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(quote?.prices).toEqual({ a: 3, f: 0 });
  });

  it.each<[string, unknown]>([
    ['a failed call', new UpstreamError('status', 'Upstream answered HTTP 500', 500)],
    ['a timeout', new UpstreamError('timeout', 'Upstream did not answer within 5000 ms')],
    ['a refused redirect', new UpstreamError('redirect', 'Upstream answered HTTP 302', 302)],
    ['a refusal of a saturated host', new UpstreamRefusal('busy')],
    ['a refusal of a host whose circuit is open', new UpstreamRefusal('unavailable')],
    ['an answer that is not an object', [1, 2]],
    ['a text answer', 'ok'],
  ])('answers nothing on %s, and does not cache it', async (_case, answer) => {
    http.answer = answer;
    const prices = client('https://prices.example/p');
    expect(await prices.usd(['ethereum'])).toBeUndefined();
    http.answer = { ethereum: { usd: 1 } };
    expect(await prices.usd(['ethereum'])).toEqual({ prices: { ethereum: 1 }, cached: false });
  });

  it('lets a programming error propagate', async () => {
    const bug = new TypeError('bug');
    http.answer = bug;
    await expect(client('https://prices.example/p').usd(['ethereum'])).rejects.toBe(bug);
  });
});
