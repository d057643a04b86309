import { Global, Logger, Module } from '@nestjs/common';
import type { FacilitatorClient } from '@x402/core/server';
import type { Redis } from 'ioredis';
import { ENV, type Env } from '../config/env';
import { ChainRegistry } from '../evm/chains/chain-registry';
import { ChainRpc } from '../evm/chains/chain-rpc';
import { ActionRegistry } from '../kit/action.registry';
import { REDIS, RedisStatus } from '../telemetry/redis/redis.provider';
import {
  facilitatorSigner,
  GuardedFacilitator,
  inProcessFacilitator,
  localFacilitatorClient,
  remoteFacilitatorClient,
} from './facilitator-clients';
import { FACILITATOR, PaymentGate } from './payment-gate';
import { PaymentLedger } from './payment-ledger';
import { PaymentMetrics } from './payment-metrics';
import {
  MemoryPaymentRecords,
  PAYMENT_RECORDS,
  type PaymentRecords,
  RedisPaymentRecords,
} from './payment-records';
import { PaymentTerms } from './payment-terms';
import { PaymentStep } from './payment.step';
import { PaidCallStep } from '../kit/paid-call.step';
import { loadPaymentsConfig, PAYMENTS_CONFIG, type PaymentsConfig } from './payments.config';

/**
 * The facilitator of the paid actions served: X402_FACILITATOR_URL's, or one in this process
 * settling with X402_FACILITATOR_KEY on each paid action's chain; none without a paid action.
 * A paid action with neither set stops the boot.
 */
function facilitator(
  registry: ActionRegistry,
  config: PaymentsConfig,
  chains: ChainRegistry,
  rpc: ChainRpc,
): FacilitatorClient | null {
  const paid = registry.declarations().filter((declaration) => declaration.price);
  if (paid.length === 0) return null;
  const settings = config.facilitator;
  if (!settings) {
    throw new Error(
      `Paid actions (${paid.map((d) => d.path).join(', ')}) need a facilitator: set X402_FACILITATOR_URL, or X402_FACILITATOR_KEY to settle in-process`,
    );
  }
  if ('url' in settings) {
    return new GuardedFacilitator(remoteFacilitatorClient(settings.url, config.settleTimeoutMs));
  }
  const chainIds = [...new Set(paid.map((declaration) => declaration.chains.source))];
  const signers = chainIds.flatMap((id) => {
    const chain = chains.get(id);
    if (!chain) return [];
    const request = (args: Parameters<ReturnType<ChainRpc['client']>['request']>[0]) =>
      rpc.client(chain).request(args);
    const signer = facilitatorSigner(chain, settings.key, request as never, config.settleTimeoutMs);
    return [{ chain, signer }];
  });
  new Logger('Payments').log(
    `Settling payments in-process as ${signers[0]?.signer.getAddresses()[0] ?? 'nobody'} on chains ${chainIds.join(', ')}`,
  );
  return new GuardedFacilitator(localFacilitatorClient(inProcessFacilitator(signers)));
}

/**
 * Paid actions over x402 (docs/agents.md): the payment step of every paid action (run by
 * the kit's envelope interceptor around the handler), its facilitator, the records of payments served
 * (Redis when REDIS_URL is set, else memory) and their metrics. Registered by CoreModule after
 * the kit and sign-in; global so that publishing lists the prices it takes.
 */
@Global()
@Module({
  providers: [
    { provide: PAYMENTS_CONFIG, useFactory: (env: Env) => loadPaymentsConfig(env), inject: [ENV] },
    {
      provide: PAYMENT_RECORDS,
      inject: [PAYMENTS_CONFIG, REDIS, RedisStatus],
      useFactory: (
        config: PaymentsConfig,
        redis: Redis | null,
        status: RedisStatus,
      ): PaymentRecords =>
        redis ? new RedisPaymentRecords(redis, status) : new MemoryPaymentRecords(config.memoryMax),
    },
    {
      provide: FACILITATOR,
      inject: [ActionRegistry, PAYMENTS_CONFIG, ChainRegistry, ChainRpc],
      useFactory: facilitator,
    },
    PaymentMetrics,
    PaymentTerms,
    PaymentLedger,
    PaymentGate,
    { provide: PaidCallStep, useClass: PaymentStep },
  ],
  exports: [PAYMENTS_CONFIG, PaymentTerms, PaidCallStep],
})
export class PaymentsModule {}
