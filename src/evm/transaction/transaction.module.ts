import { Module } from '@nestjs/common';
import { loadTransactionConfig, TRANSACTION_CONFIG } from '../chains/chains.config';
import { ENV } from '../../config/env';
import { TransactionBuilder } from './transaction-builder';

/**
 * Import into a transaction action's module: the builder and its two settings. Chains, their
 * registry and RPC clients come from the kit's global ChainsModule.
 */
@Module({
  providers: [
    { provide: TRANSACTION_CONFIG, useFactory: loadTransactionConfig, inject: [ENV] },
    TransactionBuilder,
  ],
  exports: [TRANSACTION_CONFIG, TransactionBuilder],
})
export class TransactionModule {}
