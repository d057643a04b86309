import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
} from '@x402/extensions/payment-identifier';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import type { EIP1193RequestFn } from 'viem';
import { facilitatorSigner, inProcessFacilitator } from '../../src/payments/facilitator-clients';
import {
  type FacilitatorServer,
  startFacilitatorServer,
} from '../../src/payments/facilitator-server';
import { loadChainsConfig } from '../../src/evm/chains/chains.config';
import {
  balances,
  FUJI,
  type PaidChain,
  payingFetch,
  postQuote,
  PRICE_UNITS,
  startPaidApp,
  startPaidChain,
} from '../support/payments.helper';

const TEN_USDC = { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10' };

/**
 * Settlement through a facilitator at X402_FACILITATOR_URL: a real one on loopback, built from
 * @x402/core's facilitator and @x402/evm's exact scheme (the server `npm run facilitator` runs),
 * the service's payment records in memory (no REDIS_URL).
 */
describe('Paid actions over x402: a facilitator at X402_FACILITATOR_URL', () => {
  let paid: PaidChain;
  let facilitator: FacilitatorServer;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    paid = await startPaidChain();
    const chain = loadChainsConfig({ CHAIN_CONFIG_FILE: paid.chainFile }).chains.get(FUJI)!;
    const request = paid.chain.publicClient.request as unknown as EIP1193RequestFn;
    const signer = facilitatorSigner(chain, paid.settlerKey, request, 30_000);
    facilitator = await startFacilitatorServer(inProcessFacilitator([{ chain, signer }]));
    ({ app, url } = await startPaidApp(paid, { X402_FACILITATOR_URL: facilitator.url }));
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await facilitator?.close();
    await paid?.chain.stop();
  });

  it('is paid, verified and settled by the facilitator, the USDC moving on the chain', async () => {
    const before = await balances(paid);
    const response = await postQuote(payingFetch(paid.payer), url, TEN_USDC);
    expect(response.status).toBe(200);
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!);
    expect(settlement.success).toBe(true);
    const receipt = await paid.chain.publicClient.getTransactionReceipt({
      hash: settlement.transaction as `0x${string}`,
    });
    // The facilitator's account sent it: it pays the gas.
    expect(receipt.from.toLowerCase()).toBe(paid.settler.address.toLowerCase());
    const after = await balances(paid);
    expect(before.payer - after.payer).toBe(PRICE_UNITS);
    expect(after.payTo - before.payTo).toBe(PRICE_UNITS);
  });

  describe('with a payment identifier (x402 payment-identifier extension)', () => {
    const id = generatePaymentId();
    const sent: string[] = [];
    /** The official client, adding the same identifier to every payment it makes. */
    const identified = (): typeof fetch => {
      const client = new x402Client()
        .register(`eip155:${FUJI}`, new ExactEvmScheme(paid.payer))
        .setSpendControls(false)
        .onBeforePaymentCreation(({ paymentRequired }) => {
          paymentRequired.extensions ??= {};
          appendPaymentIdentifierToExtensions(paymentRequired.extensions, id);
          return Promise.resolve();
        });
      const recording: typeof fetch = (input, init) => {
        const request = new Request(input, init);
        const signature = request.headers.get('payment-signature');
        if (signature) sent.push(signature);
        return fetch(request);
      };
      return wrapFetchWithPayment(recording, client);
    };

    it('answers a retry of the same payment again, charging once', async () => {
      const before = await balances(paid);
      const first = await postQuote(identified(), url, TEN_USDC);
      expect(first.status).toBe(200);
      const firstBody = (await first.json()) as { data: unknown };
      const charged = await balances(paid);
      expect(before.payer - charged.payer).toBe(PRICE_UNITS);
      // The client never heard the answer and sends the same request, payment and all.
      const retry = await postQuote(fetch, url, TEN_USDC, { 'payment-signature': sent[0] });
      expect(retry.status).toBe(200);
      const retryBody = (await retry.json()) as { data: unknown; metadata: object };
      expect(retryBody.data).toEqual(firstBody.data);
      expect(retryBody.metadata).toMatchObject({ paymentReplayed: true });
      expect(retry.headers.get('payment-response')).toBe(first.headers.get('payment-response'));
      expect(await balances(paid)).toEqual(charged);
    });

    it('refuses the identifier with another payment (409), charging nothing', async () => {
      const before = await balances(paid);
      const again = await postQuote(identified(), url, TEN_USDC);
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ data: { code: 'PAYMENT_ID_CONFLICT' } });
      expect(await balances(paid)).toEqual(before);
    });
  });
});
