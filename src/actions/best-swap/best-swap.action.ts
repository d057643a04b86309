import { defaultTokenOptions } from '../../evm';
import { ActionParam, defineAction } from '../../kit';
import { POSITIVE_DECIMAL_PATTERN } from '../../evm';
import { WALLET_MINI_APP } from '../mini-apps';

const CHAINS = { source: 43113 };
/** The native coin too: the router wraps and unwraps it through the wrapped token's pools. */
const TOKENS = defaultTokenOptions([CHAINS.source], { native: true });

export class BestSwapParams {
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

  @ActionParam({
    type: 'number',
    label: 'Max slippage (%)',
    value: 0.5,
    min: 0,
    max: 50,
    step: 0.01,
    description: 'The swap reverts if it would return less than the quote minus this share',
  })
  slippage!: number;
}

export const bestSwapAction = defineAction({
  label: 'Best swap',
  description: 'Swap through the pool that returns the most, across the configured V2-style pools',
  chains: CHAINS,
  path: '/api/best-swap',
  callsOutside: true,
  miniApp: WALLET_MINI_APP,
  params: BestSwapParams,
  requiresUser: true,
  samples: [
    {
      params: { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10' },
      userAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    },
  ],
});
