import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { HDAccount } from 'viem';
import { MyTransactionsModule } from '../../src/actions/my-transactions/my-transactions.module';
import { type TestChain, startTestChain } from '../../src/testing/evm/test-chain';
import { createTestApp } from '../support/app.factory';
import { describeWithBrowser, launchChromium } from '../support/debug-page.helper';

const SHOTS = join(__dirname, '..', '..', 'test-results', 'debug-page');

/** An injected wallet whose personal_sign is the test account's key (signed in Node). */
function installSigningWallet({ account }: { account: string }): void {
  const signer = (globalThis as unknown as { testWalletSign: (m: string) => Promise<string> })
    .testWalletSign;
  const answers: Record<string, (params: unknown[]) => Promise<unknown>> = {
    eth_requestAccounts: () => Promise.resolve([account]),
    eth_chainId: () => Promise.resolve('0xa869'),
    personal_sign: (params) => signer(String(params[0])),
  };
  Object.assign(globalThis, {
    ethereum: {
      request: (call: { method: string; params?: unknown[] }): Promise<unknown> =>
        (answers[call.method] ?? (() => Promise.resolve(null)))(call.params ?? []),
    },
  });
}

/**
 * /debug's "Sign in with Ethereum" in Chromium with an injected wallet (lower-case accounts, as
 * wallets give them): the message is signed, the page shows the verified address, and a verified
 * action then answers 200 with the session sent as a bearer token.
 */
describeWithBrowser()('Debugger page: Sign in with Ethereum', () => {
  let testChain: TestChain;
  let user: HDAccount;
  let app: NestFastifyApplication;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    testChain = await startTestChain();
    user = testChain.users[0];
    app = await createTestApp({
      env: { ...testChain.env, DEBUG_UI: 'true' },
      actions: [MyTransactionsModule],
    });
    await app.listen(0, '127.0.0.1');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.setDefaultTimeout(10_000);
    await page.exposeFunction('testWalletSign', (message: string) => user.signMessage({ message }));
    await page.addInitScript(installSigningWallet, { account: user.address.toLowerCase() });
    await page.goto(`${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/debug`);
    await page.locator('body[data-ready="true"]').waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await testChain?.stop();
  });

  it('signs in, shows the verified address, and runs a verified action with the session', async () => {
    const mine = page.locator('form[data-action="/api/my-transactions"]');
    await mine.locator('button[type=submit]').click();
    const refused = page.locator('[data-answer="/api/my-transactions"] .status .code');
    await refused.filter({ hasText: 'HTTP 401' }).waitFor();

    await page.locator('#sign-in').click();
    const status = page.locator('#verified');
    await status.filter({ hasText: 'Verified' }).waitFor();
    expect(await status.textContent()).toBe(`Verified: ${user.address} (chain 43113)`);
    expect(await page.locator('#wallet').inputValue()).toBe(user.address);

    const sent = page.waitForRequest((r) => r.url().includes('/api/my-transactions'));
    await mine.locator('button[type=submit]').click();
    expect((await sent).headers().authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    await refused.filter({ hasText: 'HTTP 200' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'sign-in.png') });
  });
});
