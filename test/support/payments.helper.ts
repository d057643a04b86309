import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { type Address, getAddress, type HDAccount, type Hex, parseAbi, toHex } from 'viem';
import { BestSwapModule } from '../../src/actions/best-swap/best-swap.module';
import { SwapQuoteModule } from '../../src/actions/swap-quote/swap-quote.module';
import { balanceOf } from '../../src/testing/evm/contracts';
import {
  type DexFixture,
  deployDexFixture,
  fixtureChainEntry,
  fundUser,
  writeChainFile,
} from '../../src/testing/evm/dex-fixture';
import { type LocalChain, startLocalChain } from '../../src/testing/evm/local-chain';
import { createTestApp } from './app.factory';

/** The chain swap-quote declares, which the local chain passes for. */
export const FUJI = 43113;
/** swap-quote's route. */
export const QUOTE = '/api/swap-quote';
/** SWAP_QUOTE_PRICE's default, in USDC base units (6 decimals). */
export const PRICE_UNITS = 10_000n;

/** A local Fuji with the DEX fixture (its USDC EIP-3009), a funded payer, a payee, a settler. */
export interface PaidChain {
  chain: LocalChain;
  fixture: DexFixture;
  payer: HDAccount;
  payTo: Address;
  /** The account whose key settles in-process (X402_FACILITATOR_KEY): it pays the gas. */
  settler: HDAccount;
  settlerKey: Hex;
  chainFile: string;
}

/** A fresh local Fuji: the DEX fixture deployed, account 1 funded to pay, 3 paid, 4 settling. */
export async function startPaidChain(): Promise<PaidChain> {
  const chain = await startLocalChain({ chainId: FUJI });
  const fixture = await deployDexFixture(chain);
  const payer = chain.accounts[1];
  await fundUser(chain, fixture, payer);
  const settler = chain.accounts[4];
  const entry = fixtureChainEntry(fixture, {
    name: 'Local Fuji',
    rpcUrl: chain.rpcUrl,
    native: 'AVAX',
    wrapped: 'WAVAX',
  });
  return {
    chain,
    fixture,
    payer,
    payTo: getAddress(chain.accounts[3].address),
    settler,
    settlerKey: toHex(settler.getHdKey().privateKey!),
    chainFile: writeChainFile({ [FUJI]: entry }),
  };
}

/**
 * The app serving swap-quote beside best swap (whose wallet mini-app document gives the paid
 * action's blink its icon, as in the shipped app), listening on loopback (x402 clients speak HTTP).
 */
export async function startPaidApp(
  paid: PaidChain,
  env: Record<string, string>,
): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await createTestApp({
    env: { CHAIN_CONFIG_FILE: paid.chainFile, X402_PAY_TO: paid.payTo, ...env },
    actions: [SwapQuoteModule, BestSwapModule],
  });
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
}

/** The official x402 fetch, paying as `payer` on the local Fuji (its USDC is no default asset). */
export function payingFetch(payer: HDAccount, sent: string[] = []): typeof fetch {
  const client = new x402Client()
    .register(`eip155:${FUJI}`, new ExactEvmScheme(payer))
    .setSpendControls(false);
  // Keeps each PAYMENT-SIGNATURE the client sends, for the replays.
  const recording: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    const signature = request.headers.get('payment-signature');
    if (signature) sent.push(signature);
    return fetch(request);
  };
  return wrapFetchWithPayment(recording, client);
}

/** The fixture USDC's EIP-3009 read: whether an authorization's nonce was used. */
export const USDC_3009_ABI = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
]);

/** USDC balances of the payer and the payee, read on the chain. */
export async function balances(paid: PaidChain): Promise<{ payer: bigint; payTo: bigint }> {
  const [payer, payTo] = await Promise.all([
    balanceOf(paid.chain, paid.fixture.usdc, paid.payer.address),
    balanceOf(paid.chain, paid.fixture.usdc, paid.payTo),
  ]);
  return { payer, payTo };
}

/** A JSON POST of swap-quote's params through `fetcher`. */
export function postQuote(
  fetcher: typeof fetch,
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetcher(`${url}${QUOTE}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ params }),
  });
}
