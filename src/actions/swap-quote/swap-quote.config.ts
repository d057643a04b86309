import { IsOptional, Matches } from '../../config/validator-subset';
import { type Env, readEnv } from '../../config/env';
import { registerConfigCheck } from '../../config/configuration.check';

class SwapQuoteEnv {
  /**
   * What one swap-quote costs, in USDC (decimal text), paid over x402 to `X402_PAY_TO`; the
   * action is served only when `X402_PAY_TO` is set.
   */
  @IsOptional()
  @Matches(/^(?=.*[1-9])\d{1,12}(\.\d{1,6})?$/, {
    message: 'SWAP_QUOTE_PRICE must be a positive USDC amount with at most 6 decimals (0.01)',
  })
  SWAP_QUOTE_PRICE = '0.01';
}

export interface SwapQuoteConfig {
  /** USDC per call, decimal text. */
  price: string;
}

/** Read once per environment: the price function asks on every call. */
const read = new WeakMap<Env, SwapQuoteConfig>();

export function loadSwapQuoteConfig(env: Env): SwapQuoteConfig {
  let config = read.get(env);
  if (!config) {
    config = { price: readEnv(SwapQuoteEnv, env, 'swap-quote configuration').SWAP_QUOTE_PRICE };
    read.set(env, config);
  }
  return config;
}

// Refused at boot together with every other group of variables (checkConfiguration).
registerConfigCheck(loadSwapQuoteConfig);
