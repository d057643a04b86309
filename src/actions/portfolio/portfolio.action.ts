import { ActionParam, defineAction } from '../../kit';
import { WALLET_MINI_APP } from '../mini-apps';

/** Length of each period in seconds; the analysis compares the start of the period with now. */
export const TIMEFRAMES = { '24h': 86_400, '7d': 604_800, '30d': 2_592_000 } as const;
export type Timeframe = keyof typeof TIMEFRAMES;

export class PortfolioParams {
  @ActionParam({
    type: 'select',
    label: 'Timeframe',
    value: '7d',
    options: [
      { label: 'Last 24 hours', value: '24h' },
      { label: 'Last 7 days', value: '7d' },
      { label: 'Last 30 days', value: '30d' },
    ],
    description: 'Period over which balances are compared',
  })
  timeframe!: Timeframe;
}

export const portfolioAction = defineAction({
  label: 'Analyse portfolio',
  description: 'Your balances on the chain now and at the start of a period, with their change',
  chains: { source: 43113 },
  path: '/api/portfolio',
  callsOutside: true,
  miniApp: WALLET_MINI_APP,
  params: PortfolioParams,
  responseType: 'data',
  requiresUser: true,
  samples: [
    { params: { timeframe: '7d' }, userAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
  ],
});
