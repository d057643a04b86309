import { Global, Module } from '@nestjs/common';
import { CHAINS_CONFIG, loadChainsConfig } from './chains.config';
import { ENV } from '../../config/env';
import { ExternalHttpModule } from '../../outbound/http/external-http.module';
import { ChainRpc } from './chain-rpc';
import { ChainRegistry } from './chain-registry';

/**
 * Chains for every action, data or transaction mode: the chain file, the registry and the RPC
 * clients. Global, imported once by the kit (CoreModule).
 */
@Global()
@Module({
  // The RPC clients call nodes within the same per-host bounds as every external call.
  imports: [ExternalHttpModule],
  providers: [
    { provide: CHAINS_CONFIG, useFactory: loadChainsConfig, inject: [ENV] },
    ChainRpc,
    ChainRegistry,
  ],
  exports: [CHAINS_CONFIG, ChainRpc, ChainRegistry],
})
export class ChainsModule {}
