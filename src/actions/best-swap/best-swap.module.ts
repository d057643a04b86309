import { Module } from '@nestjs/common';
import { TransactionModule } from '../../kit';
import { BestSwapController } from './best-swap.controller';
import { BestSwapService } from './best-swap.service';
import { SwapQuoterModule } from './swap-quoter.module';

@Module({
  imports: [TransactionModule, SwapQuoterModule],
  controllers: [BestSwapController],
  providers: [BestSwapService],
})
export class BestSwapModule {}
