import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import Redis from 'ioredis';
import { formatUnits, getAddress } from 'viem';
import { LIQUIDITY } from '../../src/testing/evm/dex-fixture';
import {
  deleteKeys,
  describeWithRedis,
  REDIS_TEST_URL,
  runKeyPrefix,
} from '../support/redis.helper';
import { parseExposition, valueOf } from '../support/prometheus.helper';
import { describeActionConformance } from '../../src/testing';
import { ActionMetrics } from '../../src/telemetry/metrics/action-metrics';
import {
  balances,
  FUJI,
  type PaidChain,
  payingFetch,
  postQuote,
  PRICE_UNITS,
  QUOTE,
  startPaidApp,
  startPaidChain,
  USDC_3009_ABI,
} from '../support/payments.helper';

/** Uniswap V2's getAmountOut, as UniswapV2Library writes it. */
const getAmountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);

const TEN_USDC = { tokenIn: 'USDC', tokenOut: 'WAVAX', amountIn: '10' };

/**
 * swap-quote paid over x402 v2 with the official client (@x402/fetch), settled in-process
 * (X402_FACILITATOR_KEY) on a local Fuji whose USDC takes EIP-3009 authorizations, the used
 * payments recorded in Redis.
 */
describeWithRedis()('Paid actions over x402: swap-quote, settled in-process', () => {
  let paid: PaidChain;
  let app: NestFastifyApplication;
  let url: string;
  let admin: Redis;
  const prefix = runKeyPrefix('x402');

  beforeAll(async () => {
    paid = await startPaidChain();
    admin = new Redis(REDIS_TEST_URL, { lazyConnect: true });
    ({ app, url } = await startPaidApp(paid, {
      X402_FACILITATOR_KEY: paid.settlerKey,
      REDIS_URL: REDIS_TEST_URL,
      REDIS_KEY_PREFIX: prefix,
    }));
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    if (admin) {
      await deleteKeys(admin, prefix);
      admin.disconnect();
    }
    await paid?.chain.stop();
  });

  // The conformance kit knows a paid action: its samples are answered 402 with the terms, it has
  // no platform document and its blink is disabled.
  describeActionConformance(() => app, QUOTE);

  it('answers a call without payment 402 with the x402 v2 PAYMENT-REQUIRED terms', async () => {
    const response = await postQuote(fetch, url, TEN_USDC);
    expect(response.status).toBe(402);
    const required = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    expect(required.x402Version).toBe(2);
    expect(required.accepts).toEqual([
      expect.objectContaining({
        scheme: 'exact',
        network: `eip155:${FUJI}`,
        asset: getAddress(paid.fixture.usdc),
        amount: PRICE_UNITS.toString(),
        payTo: paid.payTo,
        extra: expect.objectContaining({ name: 'USD Coin', version: '2' }),
      }),
    ]);
    expect(required.extensions?.['payment-identifier']).toBeDefined();
    const body = (await response.json()) as { success: boolean; data: { code: string } };
    expect(body).toMatchObject({ success: false, data: { code: 'PAYMENT_REQUIRED' } });
  });

  it('is paid by the official client, then answers the quote; the USDC moves on the chain', async () => {
    const before = await balances(paid);
    const sent: string[] = [];
    const response = await postQuote(payingFetch(paid.payer, sent), url, TEN_USDC);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      success: boolean;
      data: { amountOut: string; route: { pool: string } };
    };
    // Alpha (20 USDC per WAVAX, deeper) pays the most for 10 USDC.
    const out = getAmountOut(10_000_000n, LIQUIDITY.alpha.usdc, LIQUIDITY.alpha.wrapped);
    expect(body.success).toBe(true);
    expect(body.data.route.pool).toBe('Alpha WAVAX/USDC');
    expect(body.data.amountOut).toBe(formatUnits(out, 18));
    const settlement = decodePaymentResponseHeader(response.headers.get('payment-response')!);
    expect(settlement).toMatchObject({ success: true, network: `eip155:${FUJI}` });
    expect(getAddress(settlement.payer!)).toBe(getAddress(paid.payer.address));
    const receipt = await paid.chain.publicClient.getTransactionReceipt({
      hash: settlement.transaction as `0x${string}`,
    });
    expect(receipt.status).toBe('success');
    const after = await balances(paid);
    expect(before.payer - after.payer).toBe(PRICE_UNITS);
    expect(after.payTo - before.payTo).toBe(PRICE_UNITS);
    expect(sent).toHaveLength(1);

    // The same PAYMENT-SIGNATURE again: refused, and nothing moves.
    const replay = await postQuote(fetch, url, TEN_USDC, { 'payment-signature': sent[0] });
    expect(replay.status).toBe(402);
    const refused = decodePaymentRequiredHeader(replay.headers.get('payment-required')!);
    expect(refused.error).toBe('payment_already_used');
    expect(await balances(paid)).toEqual(after);
  });

  it('charges nothing for a call the action refuses after the payment was verified', async () => {
    const before = await balances(paid);
    const sent: string[] = [];
    // Same token twice: valid params, refused by the action (best swap's rule).
    const response = await postQuote(payingFetch(paid.payer, sent), url, {
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amountIn: '10',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('payment-response')).toBeNull();
    expect(sent).toHaveLength(1);
    expect(await balances(paid)).toEqual(before);
    const { authorization } = decodePaymentSignatureHeader(sent[0]).payload as {
      authorization: { from: `0x${string}`; nonce: `0x${string}` };
    };
    const used = await paid.chain.publicClient.readContract({
      address: paid.fixture.usdc,
      abi: USDC_3009_ABI,
      functionName: 'authorizationState',
      args: [authorization.from, authorization.nonce],
    });
    expect(used).toBe(false);
  });

  it('refuses bad input before any payment is asked', async () => {
    const before = await balances(paid);
    const sent: string[] = [];
    const response = await postQuote(payingFetch(paid.payer, sent), url, {
      tokenIn: 'USDC',
      tokenOut: 'WAVAX',
      amountIn: 'ten',
    });
    expect(response.status).toBe(400);
    expect(sent).toEqual([]);
    expect(await balances(paid)).toEqual(before);
  });

  it('refuses a forged signature without sending anything to the chain', async () => {
    const sent: string[] = [];
    await postQuote(payingFetch(paid.payer, sent), url, TEN_USDC);
    const before = await balances(paid);
    const settlerNonce = await paid.chain.publicClient.getTransactionCount({
      address: paid.settler.address,
    });
    // The payer's signature over other terms: a fresh nonce it never signed.
    const payload = decodePaymentSignatureHeader(sent[0]);
    const inner = payload.payload as { authorization: Record<string, string> };
    const nonce = `0x${'ab'.repeat(32)}` as const;
    const forged = encodePaymentSignatureHeader({
      ...payload,
      payload: { ...payload.payload, authorization: { ...inner.authorization, nonce } },
    });
    const response = await postQuote(fetch, url, TEN_USDC, { 'payment-signature': forged });
    expect(response.status).toBe(402);
    const refused = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    expect(refused.error).toMatch(/signature/i);
    expect(await balances(paid)).toEqual(before);
    // The settling account sent nothing, and the nonce is unused on the chain.
    expect(
      await paid.chain.publicClient.getTransactionCount({ address: paid.settler.address }),
    ).toBe(settlerNonce);
    const used = await paid.chain.publicClient.readContract({
      address: paid.fixture.usdc,
      abi: USDC_3009_ABI,
      functionName: 'authorizationState',
      args: [paid.payer.address, nonce],
    });
    expect(used).toBe(false);
  });

  it('publishes its price in OpenAPI, leaves it out of the platform and disables its blink', async () => {
    const openapi = (await app.inject({ url: '/api/openapi.json' })).json<{
      paths: Record<string, { post: Record<string, unknown> & { responses: object } }>;
    }>();
    const post = openapi.paths[QUOTE].post;
    expect(post['x-payment']).toEqual({
      amount: '0.01',
      token: 'USDC',
      payTo: paid.payTo,
      network: `eip155:${FUJI}`,
      scheme: 'exact',
      varies: true,
    });
    expect(post.description).toContain('Paid: 0.01 USDC per call');
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['402', '409']));
    const index = (await app.inject({ url: '/api/metadata' })).json<{
      miniApps: { actionPaths: string[] }[];
    }>();
    expect(index.miniApps.flatMap((m) => m.actionPaths)).not.toContain(QUOTE);
    const blink = (await app.inject({ url: '/api/blinks/swap-quote' })).json<{
      disabled?: boolean;
      error?: { message: string };
    }>();
    expect(blink).toMatchObject({
      disabled: true,
      error: { message: expect.stringMatching(/paid/) },
    });
  });

  it('counts paid calls by action and outcome', async () => {
    const samples = parseExposition(await app.get(ActionMetrics).registry.metrics());
    const count = (outcome: string): number =>
      valueOf(samples, 'dynamic_action_payments_total', { action: QUOTE, outcome }) ?? 0;
    expect(count('settled')).toBe(2);
    // The unpaid calls (the conformance kit's among them), and the first leg of each paid one.
    expect(count('required')).toBeGreaterThanOrEqual(4);
    expect(count('reused')).toBe(1);
    expect(count('not_charged')).toBe(1);
    expect(count('invalid')).toBe(1);
  });
});
