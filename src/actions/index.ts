import type { Type } from '@nestjs/common';
import { BestSwapModule } from './best-swap/best-swap.module';
import { CalculatorModule } from './calculator/calculator.module';
import { MintNftModule } from './mint-nft/mint-nft.module';
import { MyTransactionsModule } from './my-transactions/my-transactions.module';
import { PortfolioModule } from './portfolio/portfolio.module';
import { SendTokenModule } from './send-token/send-token.module';
import { SwapQuoteModule } from './swap-quote/swap-quote.module';
import { UserLookupModule } from './user-lookup/user-lookup.module';
import { WeatherModule } from './weather/weather.module';

/** Every action the service hosts: adding a team's action is one line here. */
export const ACTION_MODULES: readonly Type[] = [
  CalculatorModule,
  UserLookupModule,
  WeatherModule,
  PortfolioModule,
  SendTokenModule,
  BestSwapModule,
  MintNftModule,
  MyTransactionsModule,
  // Paid over x402; served only with X402_PAY_TO (servedActionModules).
  SwapQuoteModule,
];
