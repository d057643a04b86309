import { Module } from '@nestjs/common';
import { TransactionModule } from '../../kit';
import { SendTokenController } from './send-token.controller';
import { SendTokenService } from './send-token.service';

@Module({
  imports: [TransactionModule],
  controllers: [SendTokenController],
  providers: [SendTokenService],
})
export class SendTokenModule {}
