import { Module } from '@nestjs/common';
import {
  CHAINS_CONFIG,
  loadChainsConfig,
  loadTransactionConfig,
  TRANSACTION_CONFIG,
} from '../../config/chains.config';
import { ENV } from '../../config/env';
import { ExternalHttpModule } from '../http/external-http.module';
import { ChainRpc } from './chain-rpc';
import { TransactionBuilder } from './transaction-builder';

/** Import into a transaction action's module: chains, their RPC clients and the builder. */
@Module({
  // The RPC clients call nodes within the same per-host bounds as every external call.
  imports: [ExternalHttpModule],
  providers: [
    { provide: CHAINS_CONFIG, useFactory: loadChainsConfig, inject: [ENV] },
    { provide: TRANSACTION_CONFIG, useFactory: loadTransactionConfig, inject: [ENV] },
    ChainRpc,
    TransactionBuilder,
  ],
  exports: [CHAINS_CONFIG, TRANSACTION_CONFIG, ChainRpc, TransactionBuilder],
})
export class TransactionModule {}
