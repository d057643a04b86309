import { Logger } from '@nestjs/common';
import type { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import type {
  Network,
  PaymentPayload,
  PaymentRequirements,
  SupportedResponse,
} from '@x402/core/types';
import type { toFacilitatorEvmSigner } from '@x402/evm';
import {
  createWalletClient,
  custom,
  defineChain,
  type EIP1193RequestFn,
  type Hex,
  nonceManager,
  publicActions,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainInfo } from '../evm/chains/chains.config';
import { limitLog } from '../telemetry/logging/log-limiter';
import { logText } from '../telemetry/logging/log-text';
import { redactUrl } from '../config/redact-url';
import { x402Network } from './action-price';
import { x402 } from './x402-modules';

/** What @x402/evm's facilitator signs and reads with (its type is not exported by name). */
export type FacilitatorEvmSigner = ReturnType<typeof toFacilitatorEvmSigner>;

/** Every URL in a text, redacted: a node's error carries its URL, which may hold a key. */
export const withoutUrls = (text: string): string =>
  text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"')]+/gi, (url) => redactUrl(url));

/**
 * The account that settles payments in-process, on one chain: a viem wallet client whose
 * requests go through `request` (the service's bounded client of that chain's node), its nonces
 * kept by viem's nonce manager so that settlements at once never share one.
 */
export function facilitatorSigner(
  chain: ChainInfo,
  key: Hex,
  request: EIP1193RequestFn,
  confirmationTimeoutMs: number,
): FacilitatorEvmSigner {
  const account = privateKeyToAccount(key, { nonceManager });
  const client = createWalletClient({
    account,
    chain: defineChain({
      id: chain.chainId,
      name: chain.name,
      nativeCurrency: { name: chain.native.symbol, symbol: chain.native.symbol, decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    }),
    transport: custom({ request }),
    pollingInterval: 250,
  }).extend(publicActions);
  type VerifyTyped = Parameters<typeof client.verifyTypedData>[0];
  return x402().evm.toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) => client.readContract({ ...args, args: args.args ?? [] }),
      verifyTypedData: (args) => client.verifyTypedData(args as VerifyTyped),
      writeContract: (args) => client.writeContract({ ...args, args: args.args }),
      sendTransaction: (args) => client.sendTransaction(args),
      waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
      getCode: (args) => client.getCode(args),
    },
    { confirmationTimeoutMs },
  );
}

/**
 * An x402 facilitator in this process (X402_FACILITATOR_KEY): the `exact` EVM scheme of
 * @x402/evm, registered on each given chain with that chain's signer, verifying and settling
 * with the key's account (which pays the gas).
 */
export function inProcessFacilitator(
  chains: readonly { chain: ChainInfo; signer: FacilitatorEvmSigner }[],
): x402Facilitator {
  const facilitator = new (x402().facilitator.x402Facilitator)();
  for (const { chain, signer } of chains) {
    x402().evmFacilitator.registerExactEvmScheme(facilitator, {
      signer,
      networks: x402Network(chain.chainId),
    });
  }
  return facilitator;
}

/** The facilitator of this process as the resource server's client of one. */
export function localFacilitatorClient(facilitator: x402Facilitator): FacilitatorClient {
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: (): Promise<SupportedResponse> => {
      // Its kinds name the networks it was registered on, CAIP-2 ids all (`eip155:<id>`).
      const supported = facilitator.getSupported();
      const kinds = supported.kinds.map((kind) => ({ ...kind, network: kind.network as Network }));
      return Promise.resolve({ ...supported, kinds });
    },
  };
}

/** The facilitator at X402_FACILITATOR_URL, each call bounded by X402_SETTLE_TIMEOUT_MS. */
export function remoteFacilitatorClient(url: string, timeoutMs: number): FacilitatorClient {
  return new (x402().server.HTTPFacilitatorClient)({ url, timeoutMs });
}

/**
 * A facilitator whose failures say nothing of it: a thrown error (a node's, carrying its URL;
 * the facilitator's own text) is logged, URLs redacted and repeats limited, and rethrown as one
 * FacilitatorResponseError that the gate answers 502. Refusals (`isValid: false`, `success:
 * false`, and the VerifyError and SettleError x402's client throws for one sent with an error
 * status) are passed on as they are.
 */
export class GuardedFacilitator implements FacilitatorClient {
  private readonly logger = new Logger('Facilitator');

  constructor(private readonly inner: FacilitatorClient) {}

  verify(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
  ): ReturnType<FacilitatorClient['verify']> {
    return this.guard('verify', () => this.inner.verify(payload, requirements));
  }

  settle(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
  ): ReturnType<FacilitatorClient['settle']> {
    return this.guard('settle', () => this.inner.settle(payload, requirements));
  }

  getSupported(): ReturnType<FacilitatorClient['getSupported']> {
    return this.guard('supported', () => this.inner.getSupported());
  }

  private async guard<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      // A refusal a facilitator answered with an error status is still a refusal (402). By
      // name: each entry of @x402/core bundles its own copy of these classes.
      if (error instanceof Error && /^(Verify|Settle)Error$/.test(error.name)) throw error;
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      limitLog(this.logger).warn(
        `facilitator ${what}`,
        `The facilitator's ${what} failed: ${logText(withoutUrls(text))}`,
      );
      throw new (x402().server.FacilitatorResponseError)(`The facilitator's ${what} failed`);
    }
  }
}
