import { Logger } from '@nestjs/common';
import { ResultCache, UpstreamError } from '../../kit';
import { MemoryCacheStore } from '../../outbound/cache/cache.store';
import type { ExternalHttp } from '../../outbound/http/external-http';
import { PriceClient } from './price.client';

describe('PriceClient failure logs', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('writes one line for 50 identical price API failures', async () => {
    const failing = {
      getJson: () => Promise.reject(new UpstreamError('status', 'Upstream answered HTTP 500', 500)),
    };
    const client = new PriceClient(
      failing as unknown as ExternalHttp,
      new ResultCache(new MemoryCacheStore(), { ttlSeconds: 300, prefix: 't:' }),
      { apiUrl: 'https://prices.example/simple/price' },
    );
    for (let i = 0; i < 50; i++) expect(await client.usd([`coin-${i}`])).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('Price API call failed: Upstream answered HTTP 500');
  });
});
