/* eslint-disable @typescript-eslint/no-require-imports */
import type * as Facilitator from '@x402/core/facilitator';
import type * as Http from '@x402/core/http';
import type * as Server from '@x402/core/server';
import type * as Evm from '@x402/evm';
import type * as EvmFacilitator from '@x402/evm/exact/facilitator';
import type * as EvmServer from '@x402/evm/exact/server';
import type * as Identifier from '@x402/extensions/payment-identifier';

/** The parts of x402's packages the payment step runs on. */
export interface X402Modules {
  facilitator: typeof Facilitator;
  http: typeof Http;
  server: typeof Server;
  evm: typeof Evm;
  evmFacilitator: typeof EvmFacilitator;
  evmServer: typeof EvmServer;
  identifier: typeof Identifier;
}

let loaded: X402Modules | undefined;

/**
 * x402's packages, loaded when the first paid action is set up: a service that serves none (the
 * default: swap-quote needs X402_PAY_TO) never loads them, nor their share of the boot
 * (docs/performance.md, Boot).
 */
export const x402 = (): X402Modules =>
  (loaded ??= {
    facilitator: require('@x402/core/facilitator') as typeof Facilitator,
    http: require('@x402/core/http') as typeof Http,
    server: require('@x402/core/server') as typeof Server,
    evm: require('@x402/evm') as typeof Evm,
    evmFacilitator: require('@x402/evm/exact/facilitator') as typeof EvmFacilitator,
    evmServer: require('@x402/evm/exact/server') as typeof EvmServer,
    identifier: require('@x402/extensions/payment-identifier') as typeof Identifier,
  });
