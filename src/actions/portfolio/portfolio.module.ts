import { Module } from '@nestjs/common';
import { ENV } from '../../config/env';
import { loadPricesConfig, PRICES_CONFIG } from './prices.config';
import { ExternalHttpModule } from '../../kit';
import { PortfolioController } from './portfolio.controller';
import { PortfolioService } from './portfolio.service';
import { PriceClient } from './price.client';

/** Chains and their RPC clients come from the kit's ChainRegistry: one chain file for every action. */
@Module({
  imports: [ExternalHttpModule],
  controllers: [PortfolioController],
  providers: [
    { provide: PRICES_CONFIG, useFactory: loadPricesConfig, inject: [ENV] },
    PriceClient,
    PortfolioService,
  ],
})
export class PortfolioModule {}
