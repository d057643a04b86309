import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { HTTPAdapter, HTTPRequestContext, RoutesConfig } from '@x402/core/server';
import type { AssetAmount } from '@x402/core/types';
import { type Address, parseAbi, parseUnits } from 'viem';
import { ENV, type Env } from '../config/env';
import { ActionException } from '../contract/action.exception';
import type { ActionDeclaration, ActionPrice } from '../contract/action.types';
import { ChainRegistry } from '../evm/chains/chain-registry';
import type { ChainInfo, TokenInfo } from '../evm/chains/chains.config';
import type { ActionCall } from '../kit/action-call';
import { amountOf, payeeOf, X402_SCHEME, x402Network } from './action-price';
import { PAYMENTS_CONFIG, type PaymentsConfig } from './payments.config';
import { x402 } from './x402-modules';

/** EIP-3009 tokens name their EIP-712 domain: what a payer signs its authorization under. */
const DOMAIN_ABI = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
]);

/** The request as x402's HTTP server reads it: the action's call, looked up by the price. */
export class ActionCallAdapter implements HTTPAdapter {
  constructor(
    readonly call: ActionCall,
    private readonly url: string,
  ) {}

  getHeader(name: string): string | undefined {
    const value = this.call.req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }

  getMethod(): string {
    return 'POST';
  }

  getPath(): string {
    return this.call.declaration.path;
  }

  getUrl(): string {
    return this.url;
  }

  /** Never a browser: the service answers JSON, never x402's HTML paywall. */
  getAcceptHeader(): string {
    return 'application/json';
  }

  getUserAgent(): string {
    return '';
  }
}

/** A paid action's token on its source chain. */
interface Asset {
  chain: ChainInfo;
  token: TokenInfo & { address: Address };
}

/**
 * The terms of each paid action, from its declaration: x402 route configuration (`exact` on
 * the source chain, to the payee, the payment-identifier extension offered), and each call's
 * amount in the token's base units with the token's EIP-712 domain, read once from the token.
 */
@Injectable()
export class PaymentTerms {
  private readonly domains = new Map<Address, Promise<{ name: string; version: string }>>();

  constructor(
    private readonly chains: ChainRegistry,
    @Inject(ENV) private readonly env: Env,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  /** The token a paid action is paid in; a token the chain file lacks stops the boot. */
  asset(declaration: ActionDeclaration & { price: ActionPrice }): Asset {
    const chain = this.chains.get(declaration.chains.source);
    const token = chain?.tokens.get(declaration.price.token);
    if (!chain || !token?.address || token.native) {
      throw new Error(
        `Action ${declaration.path}: price.token ${declaration.price.token} is not an ERC-20 of chain ${declaration.chains.source} in the chain file`,
      );
    }
    return { chain, token: { ...token, address: token.address } };
  }

  /** x402's route configuration of every paid action (`POST <path>`). */
  routes(paid: readonly (ActionDeclaration & { price: ActionPrice })[]): RoutesConfig {
    const { PAYMENT_IDENTIFIER, declarePaymentIdentifierExtension } = x402().identifier;
    return Object.fromEntries(
      paid.map((declaration) => [
        `POST ${declaration.path}`,
        {
          accepts: {
            scheme: X402_SCHEME,
            network: x402Network(declaration.chains.source),
            payTo: payeeOf(declaration.price, this.env)!,
            price: (context: HTTPRequestContext) => this.assetAmount(declaration, context),
            maxTimeoutSeconds: this.config.maxTimeoutSeconds,
          },
          description: declaration.description ?? declaration.label,
          mimeType: 'application/json',
          extensions: { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) },
        },
      ]),
    );
  }

  /** One call's price: its amount in base units, the token and the token's EIP-712 domain. */
  private async assetAmount(
    declaration: ActionDeclaration & { price: ActionPrice },
    context: HTTPRequestContext,
  ): Promise<AssetAmount> {
    const { chain, token } = this.asset(declaration);
    const call = context.adapter instanceof ActionCallAdapter ? context.adapter.call : undefined;
    const text = amountOf(
      declaration.price,
      this.env,
      call && { params: call.params(), context: call.context },
    );
    const amount = /^\d+(\.\d+)?$/.test(text) ? parseUnits(text, token.decimals) : 0n;
    if (amount <= 0n) {
      throw new Error(`Action ${declaration.path}: its price is not a positive amount ("${text}")`);
    }
    const extra = await this.domain(chain, token.address);
    return { amount: amount.toString(), asset: token.address, extra };
  }

  /** The token's EIP-712 name and version, read once (a failed read is asked again next time). */
  private domain(chain: ChainInfo, token: Address): Promise<{ name: string; version: string }> {
    let domain = this.domains.get(token);
    if (!domain) {
      domain = this.chains
        .read(chain, 'payment token domain', (client) =>
          Promise.all([
            client.readContract({ address: token, abi: DOMAIN_ABI, functionName: 'name' }),
            client.readContract({ address: token, abi: DOMAIN_ABI, functionName: 'version' }),
          ]),
        )
        .then(
          ([name, version]) => ({ name, version }),
          (error: unknown) => {
            this.domains.delete(token);
            // A token without version() cannot take EIP-3009 payments: the service's setup.
            if (error instanceof ActionException && error.getStatus() < 500) {
              throw new ActionException(
                HttpStatus.SERVICE_UNAVAILABLE,
                'Payments are unavailable',
                {
                  message: 'This action cannot take payments yet, please try again later',
                  code: 'SERVICE_UNAVAILABLE',
                  details: `Token ${token} on chain ${chain.chainId} has no EIP-712 name() and version(): not an EIP-3009 token`,
                },
              );
            }
            throw error;
          },
        );
      this.domains.set(token, domain);
    }
    return domain;
  }
}
