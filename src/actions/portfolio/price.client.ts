import { Inject, Injectable, Logger } from '@nestjs/common';
import { PRICES_CONFIG, type PricesConfig } from './prices.config';
import { ExternalHttp, ResultCache, UpstreamError, UpstreamRefusal, limitLog } from '../../kit';

/** USD price per price id; an id the API does not know is absent. */
export type UsdPrices = Record<string, number>;

export interface PriceQuote {
  prices: UsdPrices;
  /** True when the prices came from the shared cache rather than this call. */
  cached: boolean;
}

/**
 * Reads USD prices from a simple-price style API through the shared timeout and cache. Prices
 * are an extra: when none is configured or the API fails (or its host is saturated or paused by
 * its circuit), the answer is `undefined` and the caller carries on without values.
 */
@Injectable()
export class PriceClient {
  private readonly logger = new Logger(PriceClient.name);

  constructor(
    private readonly http: ExternalHttp,
    private readonly cache: ResultCache,
    @Inject(PRICES_CONFIG) private readonly config: PricesConfig,
  ) {}

  async usd(ids: readonly string[]): Promise<PriceQuote | undefined> {
    const { apiUrl } = this.config;
    const wanted = [...new Set(ids)].sort();
    if (!apiUrl || wanted.length === 0) return undefined;
    try {
      const { value, cached } = await this.cache.getOrCompute(
        `prices:usd:${wanted.join(',')}`,
        () => this.fetchPrices(apiUrl, wanted),
      );
      return { prices: value, cached };
    } catch (error) {
      // A saturated or paused price API costs the values only, like a failed one.
      if (error instanceof UpstreamRefusal) return undefined;
      if (!(error instanceof UpstreamError)) throw error;
      limitLog(this.logger).warn(error.message, `Price API call failed: ${error.message}`);
      return undefined;
    }
  }

  private async fetchPrices(apiUrl: string, ids: readonly string[]): Promise<UsdPrices> {
    const url = new URL(apiUrl);
    url.searchParams.set('ids', ids.join(','));
    url.searchParams.set('vs_currencies', 'usd');
    return parsePrices(await this.http.getJson(url, { upstream: 'prices' }), ids);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keeps only finite, non-negative prices of the ids asked for; anything else is not a price. */
function parsePrices(body: unknown, ids: readonly string[]): UsdPrices {
  if (!isRecord(body)) throw new UpstreamError('malformed', 'Unexpected price answer');
  const prices: UsdPrices = {};
  for (const id of ids) {
    const entry = Object.hasOwn(body, id) ? body[id] : undefined;
    const usd = isRecord(entry) ? entry.usd : undefined;
    if (typeof usd === 'number' && Number.isFinite(usd) && usd >= 0) prices[id] = usd;
  }
  return prices;
}
