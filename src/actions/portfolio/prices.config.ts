import { IsOptional, IsUrl } from '../../config/validator-subset';
import { type Env, httpUrlRule, readEnv } from '../../config/env';
import { registerConfigCheck } from '../../config/configuration.check';

export const PRICES_CONFIG = Symbol('PRICES_CONFIG');

/** No default: prices are optional, and without an API the portfolio answers without values. */
class PricesEnv {
  @IsOptional()
  @IsUrl(httpUrlRule)
  PRICE_API_URL?: string;
}

export interface PricesConfig {
  /**
   * A simple-price style API: `GET <url>?ids=<a,b>&vs_currencies=usd` → `{ "<id>": { "usd": 1.23 } }`
   * (CoinGecko's `/simple/price` and its clones). A key for a paid plan may go in its query.
   */
  apiUrl?: string;
}

export function loadPricesConfig(env: Env): PricesConfig {
  return { apiUrl: readEnv(PricesEnv, env, 'price configuration').PRICE_API_URL };
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadPricesConfig);
