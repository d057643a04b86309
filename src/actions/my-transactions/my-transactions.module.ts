import { Module } from '@nestjs/common';
import { MyTransactionsController } from './my-transactions.controller';

@Module({ controllers: [MyTransactionsController] })
export class MyTransactionsModule {}
