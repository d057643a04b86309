import { Module } from '@nestjs/common';
import { TransactionModule } from '../../kit';
import { BestSwapController } from './best-swap.controller';
import { BestSwapService } from './best-swap.service';

@Module({
  imports: [TransactionModule],
  controllers: [BestSwapController],
  providers: [BestSwapService],
})
export class BestSwapModule {}
