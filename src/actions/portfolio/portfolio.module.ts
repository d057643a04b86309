import { Module } from '@nestjs/common';
import { ENV } from '../../config/env';
import { loadPricesConfig, PRICES_CONFIG } from '../../config/prices.config';
import { ExternalHttpModule } from '../../core/http/external-http.module';
import { TransactionModule } from '../../core/transaction';
import { PortfolioChains } from './portfolio-chains';
import { PortfolioController } from './portfolio.controller';
import { PortfolioService } from './portfolio.service';
import { PriceClient } from './price.client';

/** Chains and their RPC clients come from TransactionModule: one chain file for every action. */
@Module({
  imports: [ExternalHttpModule, TransactionModule],
  controllers: [PortfolioController],
  providers: [
    { provide: PRICES_CONFIG, useFactory: loadPricesConfig, inject: [ENV] },
    PriceClient,
    PortfolioChains,
    PortfolioService,
  ],
})
export class PortfolioModule {}
