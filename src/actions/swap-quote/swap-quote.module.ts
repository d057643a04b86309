import { Module } from '@nestjs/common';
import { SwapQuoterModule } from '../best-swap/swap-quoter.module';
import { SwapQuoteController } from './swap-quote.controller';
import { SwapQuoteService } from './swap-quote.service';

/** Best swap's quote as a paid data action; its quoting is best swap's own (SwapQuoter). */
@Module({
  imports: [SwapQuoterModule],
  controllers: [SwapQuoteController],
  providers: [SwapQuoteService],
})
export class SwapQuoteModule {}
