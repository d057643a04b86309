import { ActionParam, defineAction } from '../../kit';
import { defaultTokenOptions, POSITIVE_DECIMAL_PATTERN } from '../../evm';
import { WALLET_MINI_APP } from '../mini-apps';
import { loadSwapQuoteConfig } from './swap-quote.config';

const CHAINS = { source: 43113 };
/** The tokens best-swap trades, the native coin included (quoted through its wrapped token). */
const TOKENS = defaultTokenOptions([CHAINS.source], { native: true });

export class SwapQuoteParams {
  @ActionParam({ type: 'select', label: 'Sell', required: true, options: TOKENS })
  tokenIn!: string;

  @ActionParam({ type: 'select', label: 'Buy', required: true, options: TOKENS })
  tokenOut!: string;

  /** Text, not a number: it is converted to base units exactly, with the token's decimals. */
  @ActionParam({
    type: 'string',
    label: 'Amount to sell',
    required: true,
    placeholder: '1.5',
    pattern: POSITIVE_DECIMAL_PATTERN,
    maxLength: 100,
  })
  amountIn!: string;
}

/**
 * Best swap's route and amount out, sold per call over x402: the quote without the transaction,
 * for agents. Paid to X402_PAY_TO (not served without it), SWAP_QUOTE_PRICE USDC a call.
 */
export const swapQuoteAction = defineAction({
  label: 'Swap quote',
  description: 'The best route and amount out of a swap across the configured V2-style pools',
  docs: [
    'Answers `{tokenIn, tokenOut, amountIn, amountOut, route, quotes}`: the pool that pays the',
    'most for `amountIn` (`route`: its name, address, router and fee) and every pool’s quote,',
    'from the reserves now, in decimal text. No transaction. Refusals are best swap’s: the same',
    'token twice or an amount buying nothing (400), no pool of the pair (404).',
  ].join('\n'),
  chains: CHAINS,
  path: '/api/swap-quote',
  callsOutside: true,
  responseType: 'data',
  miniApp: WALLET_MINI_APP,
  params: SwapQuoteParams,
  price: { amount: ({ env }) => loadSwapQuoteConfig(env).price, token: 'USDC' },
  samples: [{ params: { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10' } }],
});
