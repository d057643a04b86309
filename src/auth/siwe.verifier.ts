import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { type Address, getAddress, type Hex, isHex } from 'viem';
import { type SiweMessage, validateSiweMessage } from 'viem/siwe';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { permanentBaseUrl, type RequestOrigin } from '../config/published-base-url';
import { ActionException } from '../contract/action.exception';
import { ChainRegistry } from '../evm/chains/chain-registry';
import type { Lane } from '../outbound/http/host-policy';
import { AUTH_CONFIG, type AuthConfig } from './auth.config';
import { AUTH_STORE, type AuthStore } from './auth.store';
import { parseStrict } from './siwe-message';
import { signedByContract, signedByKey } from './wallet-signature';

/** Longest message and signature read (an ERC-6492 signature carries its factory's call). */
const MAX_MESSAGE = 4_096;
const MAX_SIGNATURE = 32_768;

/** Who signed in, on which chain. */
export interface SignedIn {
  address: Address;
  chainId: number;
}

const invalid = (reason: string): ActionException =>
  new ActionException(HttpStatus.BAD_REQUEST, `Invalid sign-in request: ${reason}`, {
    message: `This is not a Sign-In with Ethereum request: ${reason}`,
    data: { code: 'INVALID_SIWE_MESSAGE' },
    code: 'INVALID_SIWE_MESSAGE',
  });

const refused = (reason: string): ActionException =>
  new ActionException(HttpStatus.UNAUTHORIZED, `Sign-in refused: ${reason}`, {
    message: `Sign-in refused: ${reason}. Ask for a new nonce and sign again`,
    data: { code: 'SIWE_REFUSED' },
    code: 'SIWE_REFUSED',
  });

/**
 * Checks a Sign-In with Ethereum (EIP-4361) message and its signature, with viem, cheapest first
 * so a stranger costs the node nothing: the message in its exact form (siwe-message.ts), the
 * domain and URI against the hosts this service answers for, the chain among those served, the
 * times within AUTH_CLOCK_SKEW_S, the nonce known (looked up, not used), then the signature: an
 * EOA's recovered here; only otherwise a contract wallet's (ERC-1271, ERC-6492) asked of that
 * chain's node, on a bulkhead and a gas cap of its own. The nonce is consumed last, so a forged
 * signature never burns an honest user's nonce.
 */
@Injectable()
export class SiweVerifier {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    @Inject(APP_CONFIG) private readonly app: AppConfig,
    @Inject(AUTH_STORE) private readonly store: AuthStore,
    private readonly chains: ChainRegistry,
  ) {
    const concurrency = config.walletCheckConcurrency;
    // As many wait as run: a burst of honest smart wallets queues, a flood is refused (503).
    this.lane = { name: 'wallet_check', maxConcurrency: concurrency, maxQueue: concurrency };
  }

  /** The contract-wallet checks' own bulkhead on each node (AUTH_WALLET_CHECK_CONCURRENCY). */
  private readonly lane: Lane;

  async verify(body: unknown, origin: RequestOrigin): Promise<SignedIn> {
    const { message, signature } = readBody(body);
    const parsed = parseStrict(message);
    if ('invalid' in parsed) throw invalid(parsed.invalid);
    const { address, chainId, domain, uri, nonce } = parsed;
    const hosts = this.hosts(origin);
    if (!hosts.includes(domain.toLowerCase()))
      throw refused(`the domain ${domain} is not this service`);
    if (!hosts.includes(hostOf(uri))) throw refused('the URI is not this service');
    const chain = this.chains.get(chainId);
    if (!chain) {
      throw new ActionException(HttpStatus.BAD_REQUEST, `Chain ${chainId} is not served`, {
        message: `Sign in on a chain this service serves, not on chain ${chainId}`,
        data: {
          code: 'UNSUPPORTED_CHAIN',
          supportedChains: this.chains.all().map((c) => c.chainId),
        },
        code: 'UNSUPPORTED_CHAIN',
      });
    }
    const time = this.checkTimes(parsed);
    // viem's own rules (version 1, the nonce's form, a valid address) at a time the skew allows.
    if (!validateSiweMessage({ message: parsed, domain, nonce, time })) {
      throw invalid('the message does not follow EIP-4361');
    }
    const unknownNonce = (): ActionException => refused('the nonce is unknown, used or expired');
    if (!(await this.store.hasNonce(nonce))) throw unknownNonce();
    const valid =
      (await signedByKey(address, message, signature)) ||
      (await this.chains.read(
        chain,
        'sign-in signature',
        (client) =>
          signedByContract(client, {
            address,
            message,
            signature,
            gas: this.config.walletCheckGas,
          }),
        this.lane,
      ));
    if (!valid) throw refused(`the signature is not ${address}'s`);
    // Two sign-ins racing with one nonce: only the first consumes it.
    if (!(await this.store.consumeNonce(nonce))) throw unknownNonce();
    return { address: getAddress(address), chainId };
  }

  /**
   * The message's times against now, each forgiven AUTH_CLOCK_SKEW_S; returns the time viem checks
   * the message at (now, moved into its validity by at most the skew).
   */
  private checkTimes({
    issuedAt,
    expirationTime,
    notBefore,
  }: SiweMessage & { issuedAt: Date }): Date {
    const now = Date.now();
    const skew = this.config.clockSkewS * 1000;
    const issued = issuedAt.getTime();
    if (issued > now + skew) throw refused('the message was issued in the future');
    if (issued < now - this.config.nonceTtlS * 1000 - skew) throw refused('the message is too old');
    if (expirationTime && expirationTime.getTime() <= now - skew)
      throw refused('the message has expired');
    if (notBefore && notBefore.getTime() > now + skew)
      throw refused('the message is not valid yet');
    let time = now;
    if (notBefore) time = Math.max(time, notBefore.getTime());
    if (expirationTime) time = Math.min(time, expirationTime.getTime() - 1);
    return new Date(time);
  }

  /**
   * The domain and URI of a message this service writes (a blink's sign-in, src/blinks): the
   * first host verify accepts, and the published base URL when it is on that host (else that
   * host over HTTPS), so the message it writes is one it accepts.
   */
  messageOrigin(origin: RequestOrigin): { domain: string; uri: string } {
    const [domain] = this.hosts(origin);
    const base = this.app.publicBaseUrl ?? `${origin.protocol}://${origin.host}`;
    return { domain, uri: hostOf(base) === domain ? base : `https://${domain}` };
  }

  /** AUTH_DOMAINS, else PUBLIC_BASE_URL's host, else (where it may be trusted) the request's. */
  private hosts(origin: RequestOrigin): string[] {
    if (this.config.domains.length > 0) return this.config.domains;
    return [hostOf(permanentBaseUrl(this.app, origin))];
  }
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host.toLowerCase();
  } catch {
    return '';
  }
}

function readBody(body: unknown): { message: string; signature: Hex } {
  const { message, signature } = (typeof body === 'object' && body !== null ? body : {}) as {
    message?: unknown;
    signature?: unknown;
  };
  if (typeof message !== 'string' || message.length === 0 || message.length > MAX_MESSAGE) {
    throw invalid(
      `send {"message": "<EIP-4361 text>", "signature": "0x…"} (a message up to ${MAX_MESSAGE} characters)`,
    );
  }
  if (typeof signature !== 'string' || !isHex(signature) || signature.length > MAX_SIGNATURE) {
    throw invalid('the signature must be 0x-prefixed hex');
  }
  return { message, signature };
}
