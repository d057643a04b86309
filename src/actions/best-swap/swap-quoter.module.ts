import { Module } from '@nestjs/common';
import { SwapQuoter } from './swap-quoter';

/** Best swap's quoting alone, for best swap and for swap-quote (which serves no swap route). */
@Module({ providers: [SwapQuoter], exports: [SwapQuoter] })
export class SwapQuoterModule {}
